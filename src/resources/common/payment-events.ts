import type { EventName } from '../../bus/events.js';
import { minorToNumber } from '../../lib/money.js';
import type { Transaction } from '../../store/store.js';
import type { EventData } from '../../types.js';
import { raiseEvent } from '../../webhooks/raise.js';
import type { PaymentRecord } from './payment-records.js';

/**
 * `data` of the `payment.*` webhooks. `payment.completed` is exactly the hosted API's shape
 * (payment_id, reference, amount as a number, currency, status, card_last, card_brand,
 * metadata); a failed payment adds failure_code and failure_message.
 */
export function paymentEventData(payment: PaymentRecord): EventData<'payment.completed'> | EventData<'payment.failed'> {
  return {
    payment_id: Number(payment.id),
    reference: payment.reference,
    amount: minorToNumber(payment.amount),
    currency: payment.currency,
    status: payment.status,
    card_last: payment.card_last ?? null,
    card_brand: payment.card_brand ?? null,
    metadata: payment.metadata ?? {},
    ...(payment.status === 'FAILED' ? { failure_code: payment.failure_code ?? null, failure_message: payment.failure_message ?? null } : {}),
  };
}

/** Raises a `payment.*` event about `payment`, as of its `updated_at`. */
export function emitPaymentEvent(tx: Transaction, name: EventName, payment: PaymentRecord, extra: Record<string, unknown> = {}): void {
  raiseEvent(tx, { name, source: payment.source, mode: payment.mode, data: Object.assign(paymentEventData(payment), extra) }, payment.updated_at);
}
