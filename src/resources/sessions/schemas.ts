import { metadataInput } from '../../schemas/wire.js';
import type { FromSchema } from 'json-schema-to-ts';
/** JSON Schemas of the session requests (the hosted API's field table). */
const money = (minimum: number, maximum?: number) => ({ type: 'number' as const, minimum, ...(maximum ? { maximum } : {}), money: true as const });

export const createSessionBody = {
  type: 'object',
  required: ['amount'],
  properties: {
    amount: money(0.01, 999999.99),
    reference: { type: 'string', minLength: 1, maxLength: 255 },
    currency: { type: 'string', minLength: 3, maxLength: 3, currency: true },
    description: { type: 'string', maxLength: 500 },
    success_url: { type: 'string', format: 'url' },
    cancel_url: { type: 'string', format: 'url' },
    customer_email: { type: 'string', maxLength: 255, format: 'email' },
    customer_name: { type: 'string', maxLength: 255 },
    metadata: metadataInput,
    subtotal: money(0, 999999999.99),
    discount: money(0, 999999999.99),
    shipping: money(0, 999999999.99),
    tax: {
      type: 'object',
      required: ['amount'],
      properties: {
        amount: money(0, 999999999.99),
        lines: {
          type: 'array',
          items: {
            type: 'object',
            required: ['name', 'amount'],
            properties: {
              name: { type: 'string', minLength: 1, maxLength: 255 },
              rate: { type: 'number', minimum: 0, maximum: 100 },
              amount: money(0, 999999999.99),
            },
          },
        },
      },
    },
    capture_method: { type: 'string', enum: ['automatic', 'manual'] },
    save_payment_method: { type: 'boolean' },
    apply_tax: { type: 'boolean' },
  },
} as const;

export type CreateSessionBody = FromSchema<typeof createSessionBody>;
