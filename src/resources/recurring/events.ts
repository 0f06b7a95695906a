import { formatDate, formatTimestamp } from '../../clock/format.js';
import { minorToNumber } from '../../lib/money.js';
import { familyEmitter, raiseFamilyEvent } from '../common/event-adds.js';
import type { Transaction } from '../../store/store.js';
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

/**
 * Raises `recurring.charged` about a schedule just charged: `emitRecurringEvent`'s data, with
 * the payment's reference and id, in one literal of its 12 fields in the same order. Adding the
 * two to the schedule's ten (`Object.assign`) kept them in an array of their own, and each
 * charge of a year of billing raises one of these (a schedule with `cancelled_at` is never
 * charged, and takes the general way if it were).
 */
export function emitCharged(tx: Transaction, schedule: RecurringRecord, at: number, paymentReference: string, paymentId: number): void {
  if (schedule.cancelled_at !== undefined) {
    emitRecurringEvent(tx, 'recurring.charged', schedule, at, { payment_reference: paymentReference, payment_id: paymentId });
    return;
  }
  const data: RecurringEventDataMap['recurring.charged'] = {
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
    payment_reference: paymentReference,
    payment_id: paymentId,
  };
  raiseFamilyEvent(tx, 'recurring.charged', schedule, data, undefined, at);
}
