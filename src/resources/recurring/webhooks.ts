import type { FromSchema } from 'json-schema-to-ts';
import { cardBrand, failureCode } from '../../schemas/payments.js';
import { frequency, recurringStatus } from '../../schemas/recurring.js';
import { amountNumber, currency, date, integer, metadata, nullable, object, string, timestamp } from '../../schemas/wire.js';

/**
 * The `recurring.*` events the recurring module declares (its `events`): each one's webhook
 * `data` schema (the schedule, plus what happened), and its type derived once under a name.
 */
const eventBase = {
  reference: string,
  amount: amountNumber,
  currency,
  status: recurringStatus,
  frequency,
  interval_count: integer,
  next_billing_date: nullable(date),
  retry_count: integer,
  customer_email: nullable(string),
  metadata,
  cancelled_at: timestamp,
};
const base = <const E extends Record<string, object> = Record<never, never>>(extra?: E) => object({ ...eventBase, ...(extra as E) }, ['cancelled_at']);
const charge = { payment_reference: string, payment_id: integer };

/** `data` of each `recurring.*` webhook; `cancelled_at` once the schedule is cancelled. */
export const recurringEvents = {
  'recurring.charged': base(charge),
  'recurring.failed': base({ ...charge, failure_code: nullable(failureCode), failure_message: nullable(string) }),
  'recurring.suspended': base(),
  'recurring.cancelled': object({ ...eventBase }),
  'recurring.paused': base(),
  'recurring.resumed': base(),
  'recurring.updated': base({ changed: { type: 'array', items: string } }),
  'recurring.payment_method_updated': base({ payment_method: string, card_brand: cardBrand, card_last: string }),
};

export type RecurringChargedData = FromSchema<(typeof recurringEvents)['recurring.charged']>;
export type RecurringFailedData = FromSchema<(typeof recurringEvents)['recurring.failed']>;
export type RecurringSuspendedData = FromSchema<(typeof recurringEvents)['recurring.suspended']>;
export type RecurringCancelledData = FromSchema<(typeof recurringEvents)['recurring.cancelled']>;
export type RecurringPausedData = FromSchema<(typeof recurringEvents)['recurring.paused']>;
export type RecurringResumedData = FromSchema<(typeof recurringEvents)['recurring.resumed']>;
export type RecurringUpdatedData = FromSchema<(typeof recurringEvents)['recurring.updated']>;
export type RecurringPaymentMethodUpdatedData = FromSchema<(typeof recurringEvents)['recurring.payment_method_updated']>;

/** The `data` of each `recurring.*` webhook, by event name: what `emitRecurringEvent` takes. */
export interface RecurringEventDataMap {
  'recurring.charged': RecurringChargedData;
  'recurring.failed': RecurringFailedData;
  'recurring.suspended': RecurringSuspendedData;
  'recurring.cancelled': RecurringCancelledData;
  'recurring.paused': RecurringPausedData;
  'recurring.resumed': RecurringResumedData;
  'recurring.updated': RecurringUpdatedData;
  'recurring.payment_method_updated': RecurringPaymentMethodUpdatedData;
}
