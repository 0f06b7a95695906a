import type { EventDataOf } from '../common/event-adds.js';
import { cardBrand, failureCode } from '../../schemas/payments.js';
import { frequency, recurringStatus } from '../../schemas/recurring.js';
import { amountNumber, currency, date, integer, metadata, nullable, object, string, timestamp } from '../../schemas/wire.js';

/**
 * The `recurring.*` events the recurring module declares (its `events`): each one's webhook
 * `data` schema (the schedule, plus what happened), and the map of their types.
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

/** The `data` of each `recurring.*` webhook, by event name: what `emitRecurringEvent` takes. */
export type RecurringEventDataMap = EventDataOf<typeof recurringEvents>;
