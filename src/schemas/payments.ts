import {
  amountNumber,
  boolean,
  currency,
  document,
  integer,
  linkage,
  listDocument,
  messageMeta,
  metadata,
  money,
  named,
  nullable,
  number,
  object,
  oneOfValues,
  resource,
  sparse,
  string,
  timestamp,
  uri,
} from './wire.js';
import type { EventName } from '../bus/events.js';
import { refundResource } from './refunds.js';
import { PAYMENT_STATUSES } from './payment-status.js';

/** JSON Schemas of the payment answers and of the `payment.*` webhook payloads (see wire.ts). */
export const paymentStatus = named('PaymentStatus', oneOfValues(PAYMENT_STATUSES));
export const cardBrand = named('CardBrand', oneOfValues(['visa', 'mastercard', 'amex']));
export const failureCode = named(
  'FailureCode',
  oneOfValues(['insufficient_funds', 'card_declined', 'expired_card', 'incorrect_cvc', 'authentication_failed', 'card_not_supported']),
);

const attributeProperties = {
  reference: string,
  amount: money,
  currency,
  status: paymentStatus,
  paid: boolean,
  provider: string,
  customer_email: nullable(string),
  card_last: nullable(string),
  card_brand: nullable(cardBrand),
  payment_method: nullable(string),
  capture_method: oneOfValues(['automatic', 'manual']),
  description: nullable(string),
  metadata,
  failure_code: nullable(failureCode),
  failure_message: nullable(string),
  captured_at: nullable(timestamp),
  created_at: timestamp,
  updated_at: timestamp,
};

/** Every attribute of a payment; `payment_method` only when a card was saved. */
export const paymentAttributes = named('PaymentAttributes', object(attributeProperties, ['payment_method']));

/** A payment in a read: `fields[payments]` (or a list's usual five) may leave attributes out; `refunds` with `include` or `fields`. */
export const paymentResource = named(
  'Payment',
  resource({ type: 'payments', attributes: sparse(paymentAttributes), relationships: { refunds: linkage('refunds') } }),
);

export const paymentReadDocument = named('PaymentDocument', document(paymentResource, { included: refundResource }));

export const paymentListDocument = named('PaymentListDocument', listDocument(paymentResource, { included: refundResource }));

const actionAttributes = { reference: string, amount: money, status: paymentStatus };

/** Capture: an integer `id`, `reference`, `amount`, `status`, `captured_at` and `meta.message`. */
export const captureDocument = named(
  'CaptureDocument',
  document(resource({ type: 'payments', id: integer, attributes: object({ ...actionAttributes, captured_at: timestamp }) }), { meta: messageMeta }),
);

export const voidDocument = named(
  'VoidDocument',
  document(resource({ type: 'payments', id: integer, attributes: object(actionAttributes) }), { meta: messageMeta }),
);

/** The control plane's plain-JSON view of a payment: an integer `id`, the attributes and `url`. */
export const paymentSummary = named('PaymentSummary', object({ id: integer, ...attributeProperties, url: uri }, ['payment_method']));

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

/** `data` of each `payment.*` webhook. */
export const paymentEventData = {
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
} satisfies Record<PaymentEventName, object>;

type PaymentEventName = Extract<EventName, `payment.${string}`>;
