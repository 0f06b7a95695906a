import { startOfDay, parseTimestamp } from '../../clock/format.js';
import type { Scope } from '../../http/auth.js';
import { Conflict, NotFound, Unprocessable } from '../../http/errors.js';
import { base62, newId } from '../../lib/ids.js';
import { toMinor } from '../../lib/money.js';
import type { Transaction } from '../../store/store.js';
import type { PaymentMethodRecord } from '../payment-methods/records.js';
import { savedCard } from '../payment-methods/saved.js';
import { firstPeriodAfter, periodDate } from './dates.js';
import { emitRecurringEvent } from './events.js';
import { Recurring, recurringId, type RecurringRecord } from './records.js';
import type { CreateRecurringBody, UpdateRecurringBody } from './schemas.js';

const FINAL = new Set(['cancelled', 'completed']);

export function getRecurring(reader: Pick<Transaction, 'get'>, scope: Scope, reference: string): RecurringRecord {
  const schedule = reader.get(Recurring, recurringId(scope.source.slug, scope.mode, reference));
  if (!schedule) throw new NotFound(`No recurring payment with reference "${reference}".`);
  return schedule;
}

/** A date field (YYYY-MM-DD) as 00:00 UTC, checked against today. */
function dateField(text: string, field: string, today: number, rule: 'today or later' | 'after today'): number {
  const date = parseTimestamp(text)!;
  if (rule === 'today or later' ? date < today : date <= today) throw Unprocessable.field(field, `The ${field} field must be a date ${rule}.`);
  return date;
}

/** `POST /v1/recurring-payments`: the first charge falls due at 00:00 UTC of `start_date`. */
export function createRecurring(tx: Transaction, scope: Scope, body: CreateRecurringBody, now: number, extra: Partial<RecurringRecord> = {}): RecurringRecord {
  const today = startOfDay(now);
  savedCard(tx, scope, body.payment_method);
  const start = body.start_date === undefined ? today : dateField(body.start_date, 'start_date', today, 'today or later');
  const end = body.end_date === undefined ? null : dateField(body.end_date, 'end_date', today, 'after today');
  if (end !== null && end <= start) throw Unprocessable.field('end_date', 'The end_date field must be a date after start_date.');
  const reference = body.reference ?? newId('rp_', 16);
  const id = recurringId(scope.source.slug, scope.mode, reference);
  if (tx.get(Recurring, id)) throw new Conflict(`A recurring payment with the reference "${reference}" already exists.`);
  return tx.put(Recurring, {
    id,
    source: scope.source.slug,
    mode: scope.mode,
    reference,
    payment_method: body.payment_method,
    amount: toMinor(body.amount),
    currency: (body.currency ?? scope.source.currency).toUpperCase(),
    frequency: body.frequency,
    interval_count: body.interval_count ?? 1,
    anchor: start,
    start_date: start,
    end_date: end,
    next_billing_date: start,
    status: 'active',
    retry_count: 0,
    sequence: 1,
    ...(body.customer_email !== undefined ? { customer_email: body.customer_email } : {}),
    ...(body.customer_name !== undefined ? { customer_name: body.customer_name } : {}),
    metadata: body.metadata ?? {},
    apply_tax: body.apply_tax ?? false,
    manage_token: base62(24),
    created_at: now,
    updated_at: now,
    ...extra,
  });
}

/** PATCH: every field optional; cancelled and completed schedules cannot change. */
export function updateRecurring(tx: Transaction, scope: Scope, reference: string, body: UpdateRecurringBody, now: number): RecurringRecord {
  const schedule = getRecurring(tx, scope, reference);
  if (FINAL.has(schedule.status)) throw new Unprocessable(`The recurring payment "${reference}" is ${schedule.status} and cannot be updated.`);
  const today = startOfDay(now);
  const next: RecurringRecord = { ...schedule, updated_at: now };
  const changed: string[] = [];
  const set = <K extends keyof RecurringRecord>(key: K, value: RecurringRecord[K]) => {
    if (JSON.stringify(next[key]) !== JSON.stringify(value)) changed.push(key);
    next[key] = value;
  };
  if (body.amount !== undefined) set('amount', toMinor(body.amount));
  if (body.customer_email !== undefined) set('customer_email', body.customer_email);
  if (body.customer_name !== undefined) set('customer_name', body.customer_name);
  if (body.metadata !== undefined) set('metadata', body.metadata);
  if (body.apply_tax !== undefined) set('apply_tax', body.apply_tax);
  if (body.end_date !== undefined) set('end_date', body.end_date === null ? null : dateField(body.end_date, 'end_date', today, 'after today'));
  const cadence = body.frequency !== undefined || body.interval_count !== undefined;
  if (body.frequency !== undefined) set('frequency', body.frequency);
  if (body.interval_count !== undefined) set('interval_count', body.interval_count);
  if (body.next_billing_date !== undefined) {
    const date = dateField(body.next_billing_date, 'next_billing_date', today, 'today or later');
    set('next_billing_date', date);
    set('anchor', date);
  } else if (cadence && schedule.next_billing_date !== null) {
    // A new cadence counts from the next billing date.
    next.anchor = schedule.next_billing_date;
  }
  const updated = tx.put(Recurring, next);
  if (changed.length > 0) emitRecurringEvent(tx, 'recurring.updated', updated, now, { changed: changed.filter((c) => c !== 'anchor') });
  return updated;
}

export function cancelRecurring(tx: Transaction, scope: Scope, reference: string, now: number): RecurringRecord {
  const schedule = getRecurring(tx, scope, reference);
  if (schedule.status === 'cancelled') throw new Unprocessable(`The recurring payment "${reference}" is already cancelled.`);
  const updated = tx.put(Recurring, { ...schedule, status: 'cancelled', cancelled_at: now, next_billing_date: null, updated_at: now });
  emitRecurringEvent(tx, 'recurring.cancelled', updated, now);
  return updated;
}

export function pauseRecurring(tx: Transaction, scope: Scope, reference: string, now: number): RecurringRecord {
  const schedule = getRecurring(tx, scope, reference);
  if (schedule.status !== 'active' && schedule.status !== 'suspended') {
    throw new Unprocessable(`The recurring payment "${reference}" is ${schedule.status}: only active or suspended schedules can be paused.`);
  }
  const updated = tx.put(Recurring, { ...schedule, status: 'paused', updated_at: now });
  emitRecurringEvent(tx, 'recurring.paused', updated, now);
  return updated;
}

/** Billing resumes from the next billing date that is not in the past; missed dates are skipped. */
export function resumeRecurring(tx: Transaction, scope: Scope, reference: string, now: number): RecurringRecord {
  const schedule = getRecurring(tx, scope, reference);
  if (schedule.status !== 'paused')
    throw new Unprocessable(`The recurring payment "${reference}" is ${schedule.status}: only paused schedules can be resumed.`);
  const today = startOfDay(now);
  let nextDate = schedule.next_billing_date;
  if (nextDate === null || nextDate < today) {
    const k = firstPeriodAfter(schedule.anchor, schedule.frequency, schedule.interval_count, today, true);
    nextDate = periodDate(schedule.anchor, schedule.frequency, schedule.interval_count, k);
  }
  const updated = tx.put(Recurring, { ...schedule, status: 'active', next_billing_date: nextDate, updated_at: now });
  emitRecurringEvent(tx, 'recurring.resumed', updated, now);
  return updated;
}

/**
 * A new card on file (payment-method session): `retry_count` resets and a suspended or
 * retrying schedule is charged once on the next processing run; missed periods are not billed.
 */
export function replaceCard(tx: Transaction, schedule: RecurringRecord, method: PaymentMethodRecord, now: number): RecurringRecord {
  if (FINAL.has(schedule.status)) throw new Unprocessable(`The recurring payment "${schedule.reference}" is ${schedule.status}: its card cannot be updated.`);
  const reactivate = schedule.status === 'suspended' || (schedule.status === 'active' && schedule.retry_count > 0);
  const updated = tx.put(Recurring, {
    ...schedule,
    payment_method: method.id,
    retry_count: 0,
    ...(reactivate ? { status: 'active', next_billing_date: startOfDay(now) } : {}),
    updated_at: now,
  });
  emitRecurringEvent(tx, 'recurring.payment_method_updated', updated, now, {
    payment_method: method.id,
    card_brand: method.card_brand,
    card_last: method.card_last,
  });
  return updated;
}
