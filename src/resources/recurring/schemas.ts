import { metadataInput } from '../../schemas/wire.js';
import type { FromSchema } from 'json-schema-to-ts';
/** JSON Schemas of the recurring-payment requests (the hosted API's PATCH table; payemu's create). */
const frequency = { type: 'string', enum: ['daily', 'weekly', 'monthly', 'yearly'] } as const;
const interval = { type: 'integer', minimum: 1, maximum: 365 } as const;
const amount = { type: 'number', minimum: 0.01, maximum: 999999.99, money: true } as const;
const date = { type: 'string', format: 'date' } as const;
/** What a schedule says of its customer, taken by create and update alike. */
const customerFields = {
  customer_email: { type: 'string', maxLength: 255, format: 'email' },
  customer_name: { type: 'string', maxLength: 255 },
  metadata: metadataInput,
  apply_tax: { type: 'boolean' },
} as const;

export const createRecurringBody = {
  type: 'object',
  required: ['payment_method', 'amount', 'frequency'],
  properties: {
    payment_method: { type: 'string', pattern: '^pm_[0-9A-Za-z]{24}$', patternMessage: 'The {field} field must be a saved card id (pm_...).' },
    amount,
    frequency,
    currency: { type: 'string', minLength: 3, maxLength: 3, currency: true },
    interval_count: interval,
    start_date: date,
    end_date: date,
    reference: { type: 'string', minLength: 1, maxLength: 255 },
    ...customerFields,
  },
} as const;

export const updateRecurringBody = {
  type: 'object',
  properties: {
    amount,
    frequency,
    interval_count: interval,
    next_billing_date: date,
    end_date: { anyOf: [date, { type: 'null' }] },
    ...customerFields,
  },
} as const;

export const paymentMethodSessionBody = {
  type: 'object',
  properties: {
    success_url: { type: 'string', format: 'url' },
    cancel_url: { type: 'string', format: 'url' },
  },
} as const;

export type CreateRecurringBody = FromSchema<typeof createRecurringBody>;
export type UpdateRecurringBody = FromSchema<typeof updateRecurringBody>;
export type PaymentMethodSessionBody = FromSchema<typeof paymentMethodSessionBody>;
