import { metadataInput } from '../../schemas/wire.js';
import type { FromSchema } from 'json-schema-to-ts';
/** JSON Schemas of the payment-link requests (the hosted API's field table). */
const nullable = <const S extends object>(schema: S): { anyOf: [S, { type: 'null' }] } => ({ anyOf: [schema, { type: 'null' }] });
const url = nullable({ type: 'string', maxLength: 2048, format: 'url' });
const createOnly = { not: {}, notMessage: 'The {field} field can only be set when the link is created.' } as const;

const shared = {
  title: { type: 'string', minLength: 1, maxLength: 255 },
  description: nullable({ type: 'string', maxLength: 5000 }),
  amount: nullable({ type: 'number', minimum: 0.01, maximum: 999999.99, money: true }),
  success_url: url,
  cancel_url: url,
  max_uses: nullable({ type: 'integer', minimum: 1 }),
  expires_at: nullable({ type: 'string', minLength: 10 }),
  taxable: nullable({ type: 'boolean' }),
  recurring: nullable({
    type: 'object',
    required: ['frequency'],
    properties: {
      frequency: { type: 'string', enum: ['daily', 'weekly', 'monthly', 'yearly'] },
      interval_count: nullable({ type: 'integer', minimum: 1, maximum: 365 }),
      end_date: nullable({ type: 'string', format: 'date' }),
    },
  }),
  metadata: { ...metadataInput, maxProperties: 50 },
} as const;

const amountRequired = 'The amount field is required when products is not present.';

/**
 * A link sells an amount or products, not both: with `products` (a list), no amount (or null);
 * without, an amount. Said as refusals of `amount`, in the words the rule has always had: the messages
 * of `not` and `required` (lib/schemas.ts).
 */
const amountOrProducts = {
  // (`items: {}`: any list will do here; the products' own rules are in createLinkBody's properties.)
  if: { required: ['products'], properties: { products: { type: 'array', items: {} } } },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else, never awaited
  then: { properties: { amount: { not: { type: 'number' }, notMessage: 'Pass either amount or products, not both.' } } },
  else: {
    required: ['amount'],
    requiredMessage: amountRequired,
    properties: { amount: { not: { type: 'null' }, notMessage: amountRequired } },
  },
} as const;

export const createLinkBody = {
  type: 'object',
  required: ['title'],
  ...amountOrProducts,
  properties: {
    ...shared,
    currency: nullable({ type: 'string', minLength: 3, maxLength: 3, currency: true }),
    products: {
      type: 'array',
      minItems: 1,
      maxItems: 50,
      items: {
        type: 'object',
        required: ['id'],
        properties: { id: { type: 'integer' }, quantity: nullable({ type: 'integer', minimum: 1, maximum: 1000 }) },
      },
    },
    active: { not: {}, notMessage: 'The {field} field can only be changed on an existing link.' },
  },
} as const;

export const updateLinkBody = {
  type: 'object',
  properties: { ...shared, currency: createOnly, products: createOnly, active: { type: 'boolean' } },
} as const;

export type CreateLinkBody = FromSchema<typeof createLinkBody>;
export type UpdateLinkBody = FromSchema<typeof updateLinkBody>;
