import { CHAOS_KINDS } from '../schemas/attempt-chaos.js';
import { anyObject, anyText, count, nullable, oneOf, owned, recordSchema, timestamp } from '../store/record-schema.js';

/** One delivery attempt (Attempt). */
const attempt = {
  type: 'object',
  required: ['status', 'response_body', 'duration_ms', 'error', 'at', 'url'],
  properties: {
    status: nullable({ type: 'integer', minimum: 100, maximum: 999 }),
    response_body: nullable(anyText),
    duration_ms: count,
    error: nullable(anyText),
    at: timestamp,
    url: anyText,
    state: oneOf(['in_progress', 'interrupted']),
    chaos: nullable(oneOf(CHAOS_KINDS)),
  },
} as const;

/** A stored event and its delivery (EventRecord), after upgradeEvent: `event` one of `eventNames`. */
export const eventRecordSchema = (eventNames: readonly string[]) =>
  recordSchema(
    {
      ...owned,
      event: oneOf(eventNames),
      data: anyObject,
      created_at: timestamp,
      delivery_status: oneOf(['pending', 'retrying', 'delivered', 'failed', 'no_endpoint']),
      next_attempt_at: nullable(timestamp),
    },
    { attempts: { type: 'array', maxItems: 10_000, items: attempt }, cycle_attempts: count },
  );

const probability = { type: 'number', minimum: 0, maximum: 1 } as const;

/** A Source and mode's webhook chaos settings (WebhookChaosRecord), as checkChaos takes them. */
export const webhookChaosRecordSchema = recordSchema({
  ...owned,
  settings: {
    type: 'object',
    additionalProperties: false,
    properties: {
      duplicate: probability,
      delay: { type: 'string', maxLength: 32, pattern: '^\\s*\\d+(\\.\\d+)?\\s*(ms|s|m|h|d|w)?\\s*$' },
      stale_timestamp: probability,
      bad_signature: probability,
      seed: { type: 'integer', minimum: 0, maximum: 4_294_967_295 },
    },
  },
});
