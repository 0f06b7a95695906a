import { anyText, oneOf, owned, recordSchema, text, timestamp } from '../../store/record-schema.js';

/** A stored card-update session (MethodSessionRecord). */
export const methodSessionRecordSchema = recordSchema(
  { ...owned, recurring_id: text, recurring_reference: text, status: oneOf(['open', 'complete', 'expired']), created_at: timestamp, expires_at: timestamp },
  { success_url: anyText, cancel_url: anyText },
);
