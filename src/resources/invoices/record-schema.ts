import { anyObject, anyText, bool, currency, minor, nullable, oneOf, owned, recordSchema, text, timestamp } from '../../store/record-schema.js';

/** A stored invoice (InvoiceRecord). */
export const invoiceRecordSchema = recordSchema({
  ...owned,
  number: text,
  status: oneOf(['draft', 'sent', 'paid', 'overdue']),
  customer_name: anyText,
  customer_email: anyText,
  customer_address: nullable(anyText),
  currency,
  due_date: timestamp,
  notes: nullable(anyText),
  terms: nullable(anyText),
  discount: minor,
  tax_rate: { type: 'number', minimum: 0, maximum: 100 },
  apply_tax: bool,
  metadata: anyObject,
  items: {
    type: 'array',
    items: {
      type: 'object',
      required: ['description', 'quantity', 'unit_price'],
      properties: { description: anyText, quantity: { type: 'integer', minimum: 1, maximum: 1_000_000 }, unit_price: minor },
    },
  },
  sent_at: nullable(timestamp),
  paid_at: nullable(timestamp),
  payment_id: nullable(text),
  created_at: timestamp,
  updated_at: timestamp,
});
