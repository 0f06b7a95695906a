import { metadataInput } from '../../schemas/wire.js';
import type { FromSchema } from 'json-schema-to-ts';
/** JSON Schemas of the invoice requests (the hosted API's field table). */
const nullable = <const S extends object>(schema: S): { anyOf: [S, { type: 'null' }] } => ({ anyOf: [schema, { type: 'null' }] });
const item = {
  type: 'object',
  required: ['description', 'quantity', 'unit_price'],
  properties: {
    description: { type: 'string', minLength: 1, maxLength: 500 },
    quantity: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    unit_price: { type: 'number', minimum: 0.01, maximum: 999999.99, money: true },
  },
} as const;

const fields = {
  customer_name: { type: 'string', minLength: 1, maxLength: 255 },
  customer_email: { type: 'string', maxLength: 255, format: 'email' },
  customer_address: nullable({ type: 'string', maxLength: 1000 }),
  currency: { type: 'string', minLength: 3, maxLength: 3, currency: true },
  due_date: { type: 'string', format: 'date' },
  notes: nullable({ type: 'string', maxLength: 2000 }),
  terms: nullable({ type: 'string', maxLength: 2000 }),
  discount: nullable({ type: 'number', minimum: 0, maximum: 999999999.99, money: true }),
  tax_rate: nullable({ type: 'number', minimum: 0, maximum: 100 }),
  metadata: metadataInput,
  items: { type: 'array', minItems: 1, maxItems: 500, items: item },
} as const;

export const createInvoiceBody = {
  type: 'object',
  required: ['customer_name', 'customer_email', 'currency', 'due_date', 'items'],
  properties: { ...fields, apply_tax: nullable({ type: 'boolean' }) },
} as const;

/** Every field optional; `apply_tax` is create-only (a create-only field on update is a 422). */
export const updateInvoiceBody = {
  type: 'object',
  properties: { ...fields, apply_tax: { not: {}, notMessage: 'The {field} field can only be set when the invoice is created.' } },
} as const;

export type CreateInvoiceBody = FromSchema<typeof createInvoiceBody>;
export type UpdateInvoiceBody = FromSchema<typeof updateInvoiceBody>;
