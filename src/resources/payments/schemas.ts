import type { FromSchema } from 'json-schema-to-ts';
/** JSON Schemas of the payment requests. (`include` and `fields[...]` of the reads are checked
 * by http/document-query.ts: an unknown include path is a 400, which a schema cannot say.) */
export const captureBody = {
  type: 'object',
  properties: { amount: { type: 'number', minimum: 0.01, maximum: 999999.99, money: true } },
} as const;

/** Void takes no fields; a body, when sent, must still be a JSON object. */
export const voidBody = { type: 'object' } as const;

export type CaptureBody = FromSchema<typeof captureBody>;
