import type { Mode } from '../../config/types.js';
import { Conflict } from '../../http/errors.js';
import type { Minor } from '../../lib/money.js';
import type { Transaction } from '../../store/store.js';
import type { CardBrand, FailureCode } from '../cards/test-cards.js';
import { nextPaymentId } from '../meta/records.js';
import { referenceKey } from '../sessions/records.js';
import { emitPaymentEvent } from './events.js';
import { Payments, SETTLED_STATUSES, type PaymentRecord } from './records.js';

/** One attempt to take money: a checkout, an off-session charge, a recurring charge. */
export interface PaymentAttempt {
  source: string;
  mode: Mode;
  reference: string;
  amount: Minor;
  currency: string;
  capture_method: 'automatic' | 'manual';
  description?: string;
  customer_email?: string;
  customer_name?: string;
  metadata?: Record<string, unknown>;
  card_brand: CardBrand | null;
  card_last: string;
  /** Absent: approved. */
  failure?: { code: FailureCode; message: string };
  payment_method?: string;
  /** Where the attempt came from. */
  origin: Pick<PaymentRecord, 'session_id' | 'charge_id' | 'recurring_reference' | 'invoice_id' | 'payment_link_id'>;
}

/**
 * Records an attempt on its reference's payment (one payment per reference: a new attempt after
 * a failure keeps the payment's id) and raises `payment.completed`, `payment.authorized` or
 * `payment.failed`. A reference whose payment succeeded or is held is a 409.
 */
export function recordPayment(tx: Transaction, attempt: PaymentAttempt, now: number): PaymentRecord {
  const existing = tx.find(Payments, 'reference', referenceKey(attempt.mode, attempt.reference))[0];
  if (existing && (existing.source !== attempt.source || SETTLED_STATUSES.has(existing.status))) {
    throw new Conflict(`The reference "${attempt.reference}" has already been paid.`);
  }
  const { failure, origin, payment_method, ...fields } = attempt;
  const base: PaymentRecord = {
    ...stripUndefined(fields),
    ...stripUndefined(origin),
    id: existing?.id ?? String(nextPaymentId(tx)),
    status: 'FAILED',
    refunded: 0,
    created_at: existing?.created_at ?? now,
    updated_at: now,
  };
  let payment: PaymentRecord;
  if (failure) payment = { ...base, failure_code: failure.code, failure_message: failure.message };
  else if (attempt.capture_method === 'manual') payment = { ...base, status: 'AUTHORIZED', authorized_at: now };
  else payment = { ...base, status: 'PAID', captured_at: now };
  if (payment_method && !failure) payment.payment_method = payment_method;
  tx.put(Payments, payment);
  emitPaymentEvent(tx, failure ? 'payment.failed' : payment.status === 'AUTHORIZED' ? 'payment.authorized' : 'payment.completed', payment);
  return payment;
}

function stripUndefined<T extends object>(value: T): T {
  const out = {} as T;
  for (const [key, v] of Object.entries(value)) if (v !== undefined) (out as Record<string, unknown>)[key] = v;
  return out;
}
