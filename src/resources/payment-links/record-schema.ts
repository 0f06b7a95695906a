import { FREQUENCIES, intervalCount } from '../recurring/record-schema.js';
import { anyObject, anyText, bool, count, currency, minor, nullable, oneOf, owned, recordSchema, text, timestamp } from '../../store/record-schema.js';

/** A stored payment link (PaymentLinkRecord); its id is an integer drawn from a counter. */
export const paymentLinkRecordSchema = recordSchema({
  id: { type: 'string', pattern: '^[1-9][0-9]{0,9}$' },
  ...owned,
  title: text,
  description: nullable(anyText),
  amount: nullable(minor),
  currency,
  success_url: nullable(anyText),
  cancel_url: nullable(anyText),
  // The API takes any count from 1: a link made with max_uses 1e15 must still export and import.
  max_uses: nullable({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  expires_at: nullable(timestamp),
  taxable: bool,
  recurring: nullable({
    type: 'object',
    required: ['frequency', 'interval_count', 'end_date'],
    properties: { frequency: oneOf(FREQUENCIES), interval_count: nullable(intervalCount), end_date: nullable(timestamp) },
  }),
  metadata: anyObject,
  products: {
    type: 'array',
    items: {
      type: 'object',
      required: ['id', 'quantity', 'name', 'unit_price'],
      properties: {
        id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        quantity: { type: 'integer', minimum: 1, maximum: 1000 },
        name: anyText,
        unit_price: minor,
      },
    },
  },
  active: bool,
  uses_count: count,
  created_at: timestamp,
  updated_at: timestamp,
});
