import { count } from '../../store/record-schema.js';

/**
 * A stored meta record: an id counter (`counter:<name>`, an integer below 2^31: a counter at
 * 2^53 would give every new payment the same id), the clock, or (in a named namespace) when
 * the namespace came into being.
 */
export const metaRecordSchema = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', pattern: '^(clock|namespace|counter:.+)$' } },
  if: { properties: { id: { const: 'clock' } } },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else, never awaited
  then: {
    required: ['clock'],
    properties: {
      clock: {
        type: 'object',
        required: ['offsetMs', 'frozenAt'],
        properties: { offsetMs: { type: 'integer' }, frozenAt: { type: ['integer', 'null'] } },
      },
    },
  },
  else: {
    if: { properties: { id: { const: 'namespace' } } },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else, never awaited
    then: { required: ['created_at'], properties: { created_at: { type: 'integer' } } },
    else: { required: ['value'], properties: { value: count } },
  },
} as const;
