import { formatDate, formatTimestamp } from '../../clock/format.js';
import { minorToNumber } from '../../lib/money.js';
import { familyEmitter } from '../common/event-adds.js';
import type { RecurringRecord } from './records.js';
import type { RecurringEventDataMap } from './webhooks.js';

/** `data` of the `recurring.*` webhooks (docs/webhooks.md): the schedule, plus what happened. */
export function recurringEventData(schedule: RecurringRecord): RecurringEventDataMap['recurring.suspended'] {
  // What every `recurring.*` event carries (`recurring.suspended` is just that); an emitter's `adds` are what an event adds.
  const data: RecurringEventDataMap['recurring.suspended'] = {
    reference: schedule.reference,
    amount: minorToNumber(schedule.amount),
    currency: schedule.currency,
    status: schedule.status,
    frequency: schedule.frequency,
    interval_count: schedule.interval_count,
    next_billing_date: schedule.next_billing_date === null ? null : formatDate(schedule.next_billing_date),
    retry_count: schedule.retry_count,
    customer_email: schedule.customer_email ?? null,
    metadata: schedule.metadata,
  };
  // Set after, in the same place, rather than spread from a literal (V8's generic copy, on every charge).
  if (schedule.cancelled_at !== undefined) data.cancelled_at = formatTimestamp(schedule.cancelled_at);
  return data;
}

/** Raises a `recurring.*` event about a schedule at `at`, with what the event adds (typed by its schema). */
export const emitRecurringEvent = familyEmitter<RecurringEventDataMap, RecurringRecord, RecurringEventDataMap['recurring.suspended']>(recurringEventData);
