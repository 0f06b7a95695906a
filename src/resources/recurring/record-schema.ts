import { anyObject, anyText, bool, count, currency, minor, nullable, oneOf, owned, recordSchema, text, timestamp } from '../../store/record-schema.js';

export const FREQUENCIES = ['daily', 'weekly', 'monthly', 'yearly'] as const;

/** An interval count, as the API takes it (1 to 365): 0 or a negative one would never move a date on. */
export const intervalCount = { type: 'integer', minimum: 1, maximum: 365 } as const;

/** A stored recurring schedule (RecurringRecord). */
export const recurringRecordSchema = recordSchema(
  {
    ...owned,
    reference: text,
    payment_method: text,
    amount: minor,
    currency,
    frequency: oneOf(FREQUENCIES),
    interval_count: intervalCount,
    anchor: timestamp,
    start_date: timestamp,
    end_date: nullable(timestamp),
    next_billing_date: nullable(timestamp),
    status: oneOf(['active', 'paused', 'suspended', 'cancelled', 'completed']),
    retry_count: count,
    sequence: { ...count, minimum: 1 },
    metadata: anyObject,
    apply_tax: bool,
    manage_token: text,
    created_at: timestamp,
    updated_at: timestamp,
  },
  { customer_email: anyText, customer_name: anyText, payment_link_id: text, cancelled_at: timestamp },
);
