import { PAYMENT_STATUSES } from '../../schemas/payment-status.js';
import { anyObject, anyText, currency, minor, nullable, oneOf, owned, recordSchema, text, timestamp } from '../../store/record-schema.js';

export const CARD_BRANDS = ['visa', 'mastercard', 'amex'] as const;
export const FAILURE_CODES = ['insufficient_funds', 'card_declined', 'expired_card', 'incorrect_cvc', 'authentication_failed', 'card_not_supported'] as const;

/** A stored payment (PaymentRecord): the store's lean shape, its usual values left out. */
export const paymentRecordSchema = recordSchema(
  {
    id: { type: 'string', pattern: '^[1-9][0-9]{0,9}$' },
    ...owned,
    reference: text,
    amount: minor,
    currency,
    status: oneOf(PAYMENT_STATUSES),
    created_at: timestamp,
  },
  {
    capture_method: oneOf(['automatic', 'manual']),
    description: anyText,
    customer_email: anyText,
    customer_name: anyText,
    metadata: anyObject,
    card_last: anyText,
    card_brand: nullable(oneOf(CARD_BRANDS)),
    payment_method: text,
    failure_code: oneOf(FAILURE_CODES),
    failure_message: anyText,
    session_id: text,
    charge_id: text,
    recurring_reference: text,
    invoice_id: text,
    payment_link_id: text,
    refunded: minor,
    updated_at: timestamp,
    authorized_at: timestamp,
    authorized_amount: minor,
    captured_at: timestamp,
    voided_at: timestamp,
  },
);
