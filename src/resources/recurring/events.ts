import type { EventName } from '../../bus/events.js';
import { formatDate, formatTimestamp } from '../../clock/format.js';
import { minorToNumber } from '../../lib/money.js';
import type { Transaction } from '../../store/store.js';
import type { EventData } from '../../types.js';
import { raiseEvent } from '../../webhooks/raise.js';
import type { RecurringRecord } from './records.js';

/** `data` of the `recurring.*` webhooks (docs/webhooks.md): the schedule, plus what happened. */
export function recurringEventData(schedule: RecurringRecord, extra: Record<string, unknown> = {}): Record<string, unknown> {
  // What every `recurring.*` event carries (`recurring.suspended` is just that); `extra` is what an event adds.
  const data: EventData<'recurring.suspended'> = {
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
    ...(schedule.cancelled_at !== undefined ? { cancelled_at: formatTimestamp(schedule.cancelled_at) } : {}),
  };
  // Added in place rather than spread into a copy: a year of billing builds hundreds of
  // thousands of these. The same keys in the same order as `{ ...data, ...extra }`.
  return Object.assign(data, extra);
}

export function emitRecurringEvent(tx: Transaction, name: EventName, schedule: RecurringRecord, at: number, extra: Record<string, unknown> = {}): void {
  raiseEvent(tx, { name, source: schedule.source, mode: schedule.mode, data: recurringEventData(schedule, extra) }, at);
}
