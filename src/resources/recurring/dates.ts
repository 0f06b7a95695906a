/**
 * Billing dates: epoch ms at 00:00 UTC. Period k of a schedule falls on its start date plus k
 * intervals; monthly and yearly keep the start's day of month, clamped to short months
 * (Jan 31 -> Feb 28/29 -> Mar 31; Feb 29 -> Feb 28 in other years).
 */
export type Frequency = 'daily' | 'weekly' | 'monthly' | 'yearly';

const DAY = 86_400_000;

export function periodDate(start: number, frequency: Frequency, intervalCount: number, k: number): number {
  const steps = k * intervalCount;
  if (frequency === 'daily') return start + steps * DAY;
  if (frequency === 'weekly') return start + steps * 7 * DAY;
  const date = new Date(start);
  const months = frequency === 'monthly' ? steps : steps * 12;
  const year = date.getUTCFullYear() + Math.floor((date.getUTCMonth() + months) / 12);
  const month = (((date.getUTCMonth() + months) % 12) + 12) % 12;
  const day = Math.min(date.getUTCDate(), daysInMonth(year, month));
  return Date.UTC(year, month, day);
}

const PERIOD_MS: Record<Frequency, number> = { daily: DAY, weekly: 7 * DAY, monthly: 28 * DAY, yearly: 365 * DAY };

/** More steps than the jump below ever leaves (a handful): past this, the cadence is broken. */
const MAX_STEPS = 1000;

/**
 * The first period index whose date is after `after` (or on it, when `inclusive`). A cadence
 * that cannot move forward (an unknown frequency, an interval count below 1, a date that is not
 * a number) is a RangeError, never a loop: records are checked when they are written or
 * imported, and this is the last guard.
 */
export function firstPeriodAfter(start: number, frequency: Frequency, intervalCount: number, after: number, inclusive = false): number {
  const period = PERIOD_MS[frequency];
  if (period === undefined || !Number.isSafeInteger(intervalCount) || intervalCount < 1 || !Number.isFinite(start) || !Number.isFinite(after))
    throw new RangeError(`A billing cadence that cannot move forward: ${String(frequency)} every ${String(intervalCount)} from ${String(start)}.`);
  // Jump close with arithmetic, then step: a daily schedule advanced ten years needs no 3,650 steps.
  const approx = period * intervalCount;
  let k = Math.max(0, Math.floor((after - start) / approx) - 2);
  for (let steps = 0; k > 0 && periodDate(start, frequency, intervalCount, k) > after; steps++) {
    if (steps > MAX_STEPS) throw new RangeError(`A billing cadence that does not converge: ${frequency} every ${intervalCount} from ${start}.`);
    k--;
  }
  for (let steps = 0; steps <= MAX_STEPS; steps++, k++) {
    const date = periodDate(start, frequency, intervalCount, k);
    if (Number.isNaN(date)) break;
    if (date > after || (inclusive && date === after)) return k;
  }
  throw new RangeError(`A billing cadence that does not converge: ${frequency} every ${intervalCount} from ${start}.`);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

export const RETRY_DELAYS_DAYS = [1, 3, 5] as const;
export const DAY_MS = DAY;
