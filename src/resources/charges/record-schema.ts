import { owned, recordSchema, text, timestamp } from '../../store/record-schema.js';

/** A stored off-session charge (ChargeRecord). */
export const chargeRecordSchema = recordSchema({ ...owned, payment_id: text, created_at: timestamp });
