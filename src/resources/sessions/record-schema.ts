import { anyObject, anyText, bool, currency, minor, oneOf, owned, recordSchema, text, timestamp } from '../../store/record-schema.js';

/** A stored checkout session (SessionRecord). */
export const sessionRecordSchema = recordSchema(
  {
    ...owned,
    reference: text,
    amount: minor,
    currency,
    capture_method: oneOf(['automatic', 'manual']),
    save_payment_method: bool,
    status: oneOf(['open', 'complete', 'expired']),
    payment_status: oneOf(['unpaid', 'paid', 'authorized', 'failed']),
    created_at: timestamp,
    expires_at: timestamp,
  },
  {
    description: anyText,
    success_url: anyText,
    cancel_url: anyText,
    customer_email: anyText,
    customer_name: anyText,
    metadata: anyObject,
    subtotal: minor,
    discount: minor,
    shipping: minor,
    tax: {
      type: 'object',
      required: ['amount'],
      properties: {
        amount: minor,
        lines: {
          type: 'array',
          items: {
            type: 'object',
            required: ['name', 'amount'],
            properties: { name: anyText, rate: { type: 'number', minimum: 0, maximum: 100 }, amount: minor },
          },
        },
      },
    },
    completed_at: timestamp,
    payment_link_id: text,
  },
);
