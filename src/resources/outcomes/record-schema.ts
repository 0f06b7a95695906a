import { FAILURE_CODES } from '../common/payment-record-schema.js';
import { count, oneOf, owned, recordSchema, text, timestamp } from '../../store/record-schema.js';

/** A stored outcome script (OutcomeScriptRecord). */
export const outcomeScriptRecordSchema = recordSchema({
  script_id: text,
  ...owned,
  target: oneOf(['reference', 'schedule', 'payment_method']),
  value: text,
  sequence: { type: 'array', minItems: 1, maxItems: 1000, items: oneOf(['approved', ...FAILURE_CODES]) },
  used: count,
  created_at: timestamp,
});
