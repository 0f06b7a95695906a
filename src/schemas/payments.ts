import type { FromSchema } from 'json-schema-to-ts';
import { boolean, currency, integer, metadata, money, named, nullable, object, oneOfValues, string, timestamp, uri } from './wire.js';
import { PAYMENT_STATUSES } from './payment-status.js';

/**
 * JSON Schemas of a payment as every part shows it (see wire.ts): its status, card brand, failure
 * code and attributes, which the resources that make payments, the control plane's answers and
 * the webhook payloads share. The payment answers of `/v1` are in src/resources/payments/wire.ts,
 * the `payment.*` webhook payloads in src/resources/common/payment-webhooks.ts.
 */
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

/** The control plane's plain-JSON view of a payment: an integer `id`, the attributes and `url`. */
export const paymentSummary = named('PaymentSummary', object({ id: integer, ...attributeProperties, url: uri }, ['payment_method']));

/** Every attribute of a payment; `payment_method` only when a card was saved. */
export type PaymentAttributes = FromSchema<typeof paymentAttributes>;
/** The control plane's view of a payment. */
export type PaymentSummary = FromSchema<typeof paymentSummary>;
