import { minorToNumber } from '../../lib/money.js';
import type { Transaction } from '../../store/store.js';
import { type EventAdds, raiseFamilyEvent } from './event-adds.js';
import { updatedAt, type PaymentRecord } from './payment-records.js';
import type { PaymentEventDataMap } from './payment-webhooks.js';

type PaymentCompletedData = PaymentEventDataMap['payment.completed'];
type PaymentFailedData = PaymentEventDataMap['payment.failed'];

/** One empty `metadata` for the events of payments without any (frozen: event data is never changed). */
const NO_METADATA: Record<string, unknown> = Object.freeze({});

/**
 * `data` of the `payment.*` webhooks. `payment.completed` is exactly the hosted API's shape
 * (payment_id, reference, amount as a number, currency, status, card_last, card_brand,
 * metadata); a failed payment adds failure_code and failure_message.
 */
export function paymentEventData(payment: PaymentRecord): PaymentCompletedData | PaymentFailedData {
  const data: PaymentCompletedData | PaymentFailedData = {
    payment_id: Number(payment.id),
    reference: payment.reference,
    amount: minorToNumber(payment.amount),
    currency: payment.currency,
    status: payment.status,
    card_last: payment.card_last ?? null,
    card_brand: payment.card_brand ?? null,
    metadata: payment.metadata ?? NO_METADATA,
  };
  // Set after, in the same order, rather than spread from a literal: a spread copies through
  // V8's generic path, and every charge raises one of these.
  if (payment.status === 'FAILED') {
    const failed = data as PaymentFailedData;
    failed.failure_code = payment.failure_code ?? null;
    failed.failure_message = payment.failure_message ?? null;
  }
  return data;
}

/** Raises a `payment.*` event about `payment`, as of its last change (`updatedAt`), with what the event adds (`adds`, typed by its schema). */
export function emitPaymentEvent<N extends keyof PaymentEventDataMap>(
  tx: Transaction,
  name: N,
  payment: PaymentRecord,
  ...[adds]: EventAdds<PaymentEventDataMap, N, PaymentFailedData>
): void {
  raiseFamilyEvent(tx, name, payment, paymentEventData(payment), adds, updatedAt(payment));
}
