import type { FromSchema } from 'json-schema-to-ts';
import {
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
  object,
  oneOfValues,
  resource,
  sparse,
  string,
  timestamp,
  uri,
} from './wire.js';
import { refundResource } from './refunds.js';
import { PAYMENT_STATUSES } from './payment-status.js';

/** JSON Schemas of the payment answers (see wire.ts); the `payment.*` webhook payloads are in src/resources/common/payment-webhooks.ts. */
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

/** Every attribute of a payment; `payment_method` only when a card was saved. */
export type PaymentAttributes = FromSchema<typeof paymentAttributes>;
/** The control plane's view of a payment. */
export type PaymentSummary = FromSchema<typeof paymentSummary>;
