import { anyText, minor, oneOf, owned, recordSchema, text, timestamp } from '../../store/record-schema.js';

/** A stored refund (RefundRecord). */
export const refundRecordSchema = recordSchema(
  { ...owned, payment_id: text, amount: minor, status: oneOf(['completed']), created_at: timestamp },
  { reason: anyText },
);
