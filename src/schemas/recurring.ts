import type { FromSchema } from 'json-schema-to-ts';
import { boolean, currency, date, integer, metadata, money, named, nullable, object, oneOfValues, string, timestamp, uri } from './wire.js';

/**
 * A schedule's status, frequency and attributes (see wire.ts), which the control plane's card
 * update answer embeds too; the `/v1` answers are in src/resources/recurring/wire.ts, the
 * `recurring.*` webhook payloads in src/resources/recurring/webhooks.ts.
 */
export const recurringStatus = named('RecurringStatus', oneOfValues(['active', 'paused', 'suspended', 'cancelled', 'completed']));
export const frequency = named('Frequency', oneOfValues(['daily', 'weekly', 'monthly', 'yearly']));

export const recurringAttributes = named(
  'RecurringPaymentAttributes',
  object({
    reference: string,
    amount: money,
    currency,
    frequency,
    interval_count: integer,
    status: recurringStatus,
    next_billing_date: nullable(date),
    retry_count: integer,
    manage_url: uri,
    payment_method: string,
    start_date: date,
    end_date: nullable(date),
    customer_email: nullable(string),
    customer_name: nullable(string),
    metadata,
    apply_tax: boolean,
    cancelled_at: nullable(timestamp),
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

export type RecurringAttributes = FromSchema<typeof recurringAttributes>;
