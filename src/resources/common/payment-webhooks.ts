import { cardBrand, failureCode, paymentStatus } from '../../schemas/payments.js';
import type { EventDataOf } from './event-adds.js';
import { amountNumber, currency, integer, metadata, nullable, number, object, string } from '../../schemas/wire.js';

/**
 * The `payment.*` events, which the payments module declares (its `events`) and every resource
 * that changes a payment raises (`emitPaymentEvent`): each one's webhook `data` schema, and the
 * map of their types. Every payload carries the payment as the hosted API shows it;
 * a failed payment adds failure_code and failure_message.
 */
const eventBase = {
  payment_id: integer,
  reference: string,
  amount: amountNumber,
  currency,
  status: paymentStatus,
  card_last: nullable(string),
  card_brand: nullable(cardBrand),
  metadata,
};

/** `data` of each `payment.*` webhook, in the hosted API's order. */
export const paymentEvents = {
  'payment.completed': object(eventBase),
  'payment.authorized': object(eventBase),
  'payment.captured': object({ ...eventBase, authorized_amount: number }),
  'payment.failed': object({ ...eventBase, failure_code: nullable(failureCode), failure_message: nullable(string) }),
  'payment.refunded': object({
    ...eventBase,
    refund_id: string,
    refund_amount: number,
    total_refunded: number,
    refundable_amount: number,
    reason: nullable(string),
  }),
  'payment.voided': object(eventBase),
};

/** The `data` of each `payment.*` webhook, by event name: what `emitPaymentEvent` takes. */
export type PaymentEventDataMap = EventDataOf<typeof paymentEvents>;
