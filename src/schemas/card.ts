import type { FromSchema } from 'json-schema-to-ts';
/** What a hosted page submits for a card, as the control plane takes it: `{card_number, three_ds?}`. */
export const cardAttemptBody = {
  type: 'object',
  required: ['card_number'],
  properties: {
    card_number: { type: 'string', pattern: '^[0-9 -]{12,40}$', patternMessage: 'The {field} field must be a card number of 12 to 19 digits.' },
    three_ds: { type: 'string', enum: ['pass', 'fail'] },
  },
} as const;

export type CardAttemptBody = FromSchema<typeof cardAttemptBody>;
