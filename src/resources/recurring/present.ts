import { urlSegment } from '../../lib/text.js';
import { onlyFields } from '../../http/document-query.js';
import { formatDate, formatOptionalTimestamp, formatTimestamp } from '../../clock/format.js';
import { formatMinor } from '../../lib/money.js';
import type { RecurringAttributes } from '../../schemas/recurring.js';
import type { RecurringRecord } from './records.js';

export const recurringUrl = (base: string, schedule: RecurringRecord) => `${base}/v1/recurring-payments/${urlSegment(schedule.reference)}`;
export const manageUrl = (base: string, schedule: RecurringRecord) => `${base}/manage/${schedule.manage_token}`;

const date = (ms: number | null) => (ms === null ? null : formatDate(ms));

/** The hosted API's read shape plus the creation fields payemu adds (docs/api.md). */
export function recurringAttributes(schedule: RecurringRecord, base: string): RecurringAttributes {
  return {
    reference: schedule.reference,
    amount: formatMinor(schedule.amount),
    currency: schedule.currency,
    frequency: schedule.frequency,
    interval_count: schedule.interval_count,
    status: schedule.status,
    next_billing_date: date(schedule.next_billing_date),
    retry_count: schedule.retry_count,
    manage_url: manageUrl(base, schedule),
    payment_method: schedule.payment_method,
    start_date: formatDate(schedule.start_date),
    end_date: date(schedule.end_date),
    customer_email: schedule.customer_email ?? null,
    customer_name: schedule.customer_name ?? null,
    metadata: schedule.metadata,
    apply_tax: schedule.apply_tax,
    cancelled_at: formatOptionalTimestamp(schedule.cancelled_at),
    created_at: formatTimestamp(schedule.created_at),
    updated_at: formatTimestamp(schedule.updated_at),
  };
}

export function presentRecurring(schedule: RecurringRecord, base: string, fields?: readonly string[]) {
  const attributes = onlyFields(recurringAttributes(schedule, base), fields);
  return { id: schedule.reference, type: 'recurring-payments', attributes, links: { self: recurringUrl(base, schedule) } };
}

/** Mutation answers carry a subset of attributes (each endpoint its own) and `meta.message`. */
export function presentMutation(schedule: RecurringRecord, base: string, fields: readonly string[], message: string) {
  return { data: presentRecurring(schedule, base, fields), meta: { message } };
}
