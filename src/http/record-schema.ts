import { faultSchema } from '../lib/faults.js';
import { anyText, bool, count, recordSchema, owned, text, timestamp } from '../store/record-schema.js';

/** A stored `Idempotency-Key` answer (IdempotencyRecord). */
export const idempotencyRecordSchema = recordSchema(
  {
    fingerprint: text,
    status: { type: 'integer', minimum: 100, maximum: 599 },
    body: anyText,
    created_at: timestamp,
  },
  { headers: { type: 'object', additionalProperties: anyText } },
);

const spec = faultSchema.properties;

/** A stored fault (FaultRecord): the spec with its defaults filled, and its state. */
export const faultRecordSchema = recordSchema({
  ...owned,
  method: spec.method,
  path: spec.path,
  status: spec.status,
  body: spec.body,
  latency_ms: spec.latency_ms,
  drop: spec.drop,
  apply: spec.apply,
  probability: spec.probability,
  times: spec.times,
  seed: spec.seed,
  hits: count,
  rng: { type: 'integer', minimum: 0, maximum: 4_294_967_295 },
  config: bool,
  created_at: timestamp,
});
