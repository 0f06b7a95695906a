import type { Mode } from '../../config/types.js';
import { Conflict } from '../../http/errors.js';
import type { Minor } from '../../lib/money.js';
import type { Transaction } from '../../store/store.js';
import type { CardBrand, FailureCode } from '../common/test-cards.js';
import { nextPaymentId } from '../meta/records.js';
import { referenceKey } from '../common/references.js';
import { emitPaymentEvent } from '../common/payment-events.js';
import { Payments, SETTLED_STATUSES, type PaymentRecord } from '../common/payment-records.js';

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
  const payment = existing === undefined && attempt.failure === undefined ? plainCharge(tx, attempt, now) : undefined;
  if (payment !== undefined) {
    tx.put(Payments, payment);
    emitPaymentEvent(tx, 'payment.completed', payment);
    return payment;
  }
  return recordAttempt(tx, attempt, existing, now);
}

/**
 * The payment of an approved first charge of a saved card for a schedule, with nothing but the
 * schedule's reference and the card to add (a year of daily billing: every charge), as one
 * literal: the fields `recordAttempt` would set, in its order. Adding the last two to a literal
 * of ten kept them in an array of their own beside the record, 40 bytes more for each payment
 * stored. Undefined for any other attempt.
 */
function plainCharge(tx: Transaction, attempt: PaymentAttempt, now: number): PaymentRecord | undefined {
  const { origin } = attempt;
  if (
    !attempt.payment_method ||
    origin.recurring_reference === undefined ||
    attempt.capture_method !== 'automatic' ||
    attempt.description !== undefined ||
    attempt.customer_email !== undefined ||
    attempt.customer_name !== undefined ||
    (attempt.metadata !== undefined && hasKeys(attempt.metadata)) ||
    origin.session_id !== undefined ||
    origin.charge_id !== undefined ||
    origin.invoice_id !== undefined ||
    origin.payment_link_id !== undefined
  ) {
    return undefined;
  }
  return {
    id: String(nextPaymentId(tx)),
    source: attempt.source,
    mode: attempt.mode,
    reference: attempt.reference,
    amount: attempt.amount,
    currency: attempt.currency,
    status: 'PAID',
    card_brand: attempt.card_brand,
    card_last: attempt.card_last,
    created_at: now,
    recurring_reference: origin.recurring_reference,
    payment_method: attempt.payment_method,
  };
}

/** `recordPayment` of any attempt: its payment built field by field (what `plainCharge` must agree with: record.test.ts). */
export function recordAttempt(tx: Transaction, attempt: PaymentAttempt, existing: PaymentRecord | undefined, now: number): PaymentRecord {
  const { failure, origin } = attempt;
  const status = failure ? 'FAILED' : attempt.capture_method === 'manual' ? 'AUTHORIZED' : 'PAID';
  // Built field by field rather than spread from the attempt, and in the store's lean shape
  // (no automatic capture method, no zero refunded, no empty metadata, no update or capture
  // time that is its creation time): a year of recurring billing records hundreds of thousands
  // of these, every one stays in memory and each is written to the journal.
  const createdAt = existing?.created_at ?? now;
  const payment: PaymentRecord = {
    id: existing?.id ?? String(nextPaymentId(tx)),
    source: attempt.source,
    mode: attempt.mode,
    reference: attempt.reference,
    amount: attempt.amount,
    currency: attempt.currency,
    status,
    card_brand: attempt.card_brand,
    card_last: attempt.card_last,
    created_at: createdAt,
  };
  if (createdAt !== now) payment.updated_at = now;
  if (attempt.capture_method === 'manual') payment.capture_method = 'manual';
  if (attempt.description !== undefined) payment.description = attempt.description;
  if (attempt.customer_email !== undefined) payment.customer_email = attempt.customer_email;
  if (attempt.customer_name !== undefined) payment.customer_name = attempt.customer_name;
  if (attempt.metadata !== undefined && hasKeys(attempt.metadata)) payment.metadata = attempt.metadata;
  if (origin.session_id !== undefined) payment.session_id = origin.session_id;
  if (origin.charge_id !== undefined) payment.charge_id = origin.charge_id;
  if (origin.recurring_reference !== undefined) payment.recurring_reference = origin.recurring_reference;
  if (origin.invoice_id !== undefined) payment.invoice_id = origin.invoice_id;
  if (origin.payment_link_id !== undefined) payment.payment_link_id = origin.payment_link_id;
  if (failure) {
    payment.failure_code = failure.code;
    payment.failure_message = failure.message;
  } else if (status === 'AUTHORIZED') payment.authorized_at = now;
  else if (createdAt !== now) payment.captured_at = now;
  if (attempt.payment_method && !failure) payment.payment_method = attempt.payment_method;
  tx.put(Payments, payment);
  emitPaymentEvent(tx, failure ? 'payment.failed' : status === 'AUTHORIZED' ? 'payment.authorized' : 'payment.completed', payment);
  return payment;
}

function hasKeys(object: Record<string, unknown>): boolean {
  for (const _ in object) return true;
  return false;
}
