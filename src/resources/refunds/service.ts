import type { Scope } from '../../http/auth.js';
import { Unprocessable } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { formatMinor, toMinor } from '../../lib/money.js';
import type { Transaction } from '../../store/store.js';
import { emitPaymentEvent } from '../common/payment-events.js';
import { findPayment } from '../common/find-payment.js';
import { Payments, refundedOf, type PaymentRecord } from '../common/payment-records.js';
import { Refunds, type RefundRecord } from './records.js';
import type { CreateRefundBody } from './schemas.js';

export const refundable = (payment: PaymentRecord) => payment.amount - refundedOf(payment);

/**
 * Refunds part or all of a paid payment: from PAID or PARTIALLY_REFUNDED,
 * 0.01 up to what is left. Reaching zero sets REFUNDED. Runs in one synchronous transaction,
 * so concurrent refunds can never take more than the payment holds.
 */
export function refundPayment(tx: Transaction, scope: Scope, reference: string, body: CreateRefundBody, now: number) {
  const payment = findPayment(tx, scope, reference);
  const amount = toMinor(body.amount);
  if (payment.status === 'REFUNDED') {
    throw new Unprocessable(`The payment "${reference}" is fully refunded: nothing is left to refund.`);
  }
  if (payment.status !== 'PAID' && payment.status !== 'PARTIALLY_REFUNDED') {
    throw new Unprocessable(`The payment "${reference}" cannot be refunded: its status is ${payment.status}; only paid payments can be refunded.`);
  }
  const left = refundable(payment);
  if (amount > left) {
    throw Unprocessable.field('amount', `The refund amount ${formatMinor(amount)} exceeds the refundable amount ${formatMinor(left)}.`);
  }
  const refund = tx.put(Refunds, {
    id: newId('re_'),
    source: payment.source,
    mode: payment.mode,
    payment_id: payment.id,
    amount,
    ...(body.reason !== undefined ? { reason: body.reason } : {}),
    status: 'completed',
    created_at: now,
  });
  const refunded = refundedOf(payment) + amount;
  const updated = tx.put(Payments, {
    ...payment,
    refunded,
    status: refunded === payment.amount ? 'REFUNDED' : 'PARTIALLY_REFUNDED',
    updated_at: now,
  });
  emitPaymentEvent(tx, 'payment.refunded', updated, {
    refund_id: refund.id,
    refund_amount: Number(formatMinor(amount)),
    total_refunded: Number(formatMinor(refunded)),
    refundable_amount: Number(formatMinor(refundable(updated))),
    reason: refund.reason ?? null,
  });
  return { refund, payment: updated };
}

/** The payment's refunds, oldest first. */
export function refundsOf(reader: Pick<Transaction, 'find'>, payment: PaymentRecord): RefundRecord[] {
  return reader.find(Refunds, 'payment', payment.id);
}
