import { metadataInput } from '../../schemas/wire.js';
import type { FromSchema } from 'json-schema-to-ts';
export const createChargeBody = {
  type: 'object',
  required: ['payment_method', 'amount'],
  properties: {
    payment_method: { type: 'string', pattern: '^pm_[0-9A-Za-z]{24}$', patternMessage: 'The {field} field must be a saved card id (pm_...).' },
    amount: { type: 'number', minimum: 0.01, maximum: 999999.99, money: true },
    currency: { type: 'string', minLength: 3, maxLength: 3, currency: true },
    reference: { type: 'string', minLength: 1, maxLength: 255 },
    description: { type: 'string', maxLength: 500 },
    metadata: metadataInput,
  },
} as const;

export type CreateChargeBody = FromSchema<typeof createChargeBody>;
