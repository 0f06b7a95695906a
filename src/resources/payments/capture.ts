import type { Scope } from '../../http/auth.js';
import { Unprocessable } from '../../http/errors.js';
import { formatMinor, toMinor } from '../../lib/money.js';
import type { Transaction } from '../../store/store.js';
import { emitPaymentEvent } from '../common/payment-events.js';
import { Payments, type PaymentRecord } from '../common/payment-records.js';
import { findPayment } from '../common/find-payment.js';

/** Authorizations not captured within 7 days are released by the clock (EXPIRED, no webhook). */
export const AUTHORIZATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Captures a held payment: the full hold by default, or a lesser amount, which becomes the
 * payment's amount (and the base for refunds); the rest of the hold is released.
 */
export function capturePayment(tx: Transaction, scope: Scope, reference: string, amount: number | undefined, now: number): PaymentRecord {
  const payment = findPayment(tx, scope, reference);
  if (payment.status !== 'AUTHORIZED') {
    throw new Unprocessable(`The payment "${reference}" cannot be captured: its status is ${payment.status}; only AUTHORIZED (held) payments can be captured.`);
  }
  const captured = amount === undefined ? payment.amount : toMinor(amount);
  if (captured > payment.amount) {
    throw Unprocessable.field('amount', `The capture amount ${formatMinor(captured)} exceeds the authorized amount ${formatMinor(payment.amount)}.`);
  }
  const updated = tx.put(Payments, { ...payment, amount: captured, authorized_amount: payment.amount, status: 'PAID', captured_at: now, updated_at: now });
  emitPaymentEvent(tx, 'payment.captured', updated, { authorized_amount: Number(formatMinor(payment.amount)) });
  emitPaymentEvent(tx, 'payment.completed', updated);
  return updated;
}

/** Releases a hold; only AUTHORIZED payments. */
export function voidPayment(tx: Transaction, scope: Scope, reference: string, now: number): PaymentRecord {
  const payment = findPayment(tx, scope, reference);
  if (payment.status !== 'AUTHORIZED') {
    throw new Unprocessable(`The payment "${reference}" cannot be voided: its status is ${payment.status}; only AUTHORIZED (held) payments can be voided.`);
  }
  const updated = tx.put(Payments, { ...payment, status: 'VOIDED', voided_at: now, updated_at: now });
  emitPaymentEvent(tx, 'payment.voided', updated);
  return updated;
}
