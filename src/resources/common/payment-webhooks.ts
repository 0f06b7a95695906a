import type { FromSchema } from 'json-schema-to-ts';
import { cardBrand, failureCode, paymentStatus } from '../../schemas/payments.js';
import { amountNumber, currency, integer, metadata, nullable, number, object, string } from '../../schemas/wire.js';

/**
 * The `payment.*` events, which the payments module declares (its `events`) and every resource
 * that changes a payment raises (`emitPaymentEvent`): each one's webhook `data` schema, and its
 * type derived once under a name. Every payload carries the payment as the hosted API shows it;
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

// Each payload type is derived once, under its own name: `FromSchema` is costly, and a named
// type is computed once where a mapped or generic one is computed again at each use.
export type PaymentCompletedData = FromSchema<(typeof paymentEvents)['payment.completed']>;
export type PaymentAuthorizedData = FromSchema<(typeof paymentEvents)['payment.authorized']>;
export type PaymentCapturedData = FromSchema<(typeof paymentEvents)['payment.captured']>;
export type PaymentFailedData = FromSchema<(typeof paymentEvents)['payment.failed']>;
export type PaymentRefundedData = FromSchema<(typeof paymentEvents)['payment.refunded']>;
export type PaymentVoidedData = FromSchema<(typeof paymentEvents)['payment.voided']>;

/** The `data` of each `payment.*` webhook, by event name: what `emitPaymentEvent` takes. */
export interface PaymentEventDataMap {
  'payment.completed': PaymentCompletedData;
  'payment.authorized': PaymentAuthorizedData;
  'payment.captured': PaymentCapturedData;
  'payment.failed': PaymentFailedData;
  'payment.refunded': PaymentRefundedData;
  'payment.voided': PaymentVoidedData;
}
