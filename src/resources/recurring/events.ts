import type { EventName } from '../../bus/events.js';
import { formatDate, formatTimestamp } from '../../clock/format.js';
import { minorToNumber } from '../../lib/money.js';
import type { Transaction } from '../../store/store.js';
import type { EventData, RecurringSuspendedData } from '../../types.js';
import { raiseEvent } from '../../webhooks/raise.js';
import type { EventAdds } from '../common/event-adds.js';
import type { RecurringRecord } from './records.js';

/** `data` of the `recurring.*` webhooks (docs/webhooks.md): the schedule, plus what happened. */
export function recurringEventData(schedule: RecurringRecord): RecurringSuspendedData {
  // What every `recurring.*` event carries (`recurring.suspended` is just that); an emitter's `adds` are what an event adds.
  return {
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
}

type RecurringEventName = Extract<EventName, `recurring.${string}`>;

/** Raises a `recurring.*` event about `schedule` at `at`, with what the event adds (`adds`, typed by its schema). */
export function emitRecurringEvent<N extends RecurringEventName>(
  tx: Transaction,
  name: N,
  schedule: RecurringRecord,
  at: number,
  ...[adds]: EventAdds<N, RecurringSuspendedData>
): void {
  // As emitPaymentEvent: the base and the adds are typed apart, joined here for the generic name.
  // Added in place rather than spread into a copy: a year of billing builds hundreds of thousands.
  const data = Object.assign(recurringEventData(schedule), adds) as unknown as EventData<N>;
  raiseEvent(tx, { name, source: schedule.source, mode: schedule.mode, data }, at);
}
