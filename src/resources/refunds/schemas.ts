import type { FromSchema } from 'json-schema-to-ts';
export const createRefundBody = {
  type: 'object',
  required: ['amount'],
  properties: {
    amount: { type: 'number', minimum: 0.01, maximum: 999999.99, money: true },
    reason: { type: 'string', maxLength: 500 },
  },
} as const;

export type CreateRefundBody = FromSchema<typeof createRefundBody>;
