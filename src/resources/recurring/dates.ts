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

/** The first period index whose date is after `after` (or on it, when `inclusive`). */
export function firstPeriodAfter(start: number, frequency: Frequency, intervalCount: number, after: number, inclusive = false): number {
  // Jump close with arithmetic, then step: a daily schedule advanced ten years needs no 3,650 steps.
  const approx = { daily: DAY, weekly: 7 * DAY, monthly: 28 * DAY, yearly: 365 * DAY }[frequency] * intervalCount;
  let k = Math.max(0, Math.floor((after - start) / approx) - 2);
  while (k > 0 && periodDate(start, frequency, intervalCount, k) > after) k--;
  for (;;) {
    const date = periodDate(start, frequency, intervalCount, k);
    if (date > after || (inclusive && date === after)) return k;
    k++;
  }
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

export const RETRY_DELAYS_DAYS = [1, 3, 5] as const;
export const DAY_MS = DAY;
