/** JSON Schemas of the payment requests. */
export const paymentQuery = {
  type: 'object',
  properties: { include: { type: 'string', enum: ['refunds'] } },
} as const;

export const captureBody = {
  type: 'object',
  properties: { amount: { type: 'number', minimum: 0.01, maximum: 999999.99, money: true } },
} as const;

/** Void takes no fields; a body, when sent, must still be a JSON object. */
export const voidBody = { type: 'object' } as const;
