import { formatDate, formatTimestamp, parseTimestamp } from '../../clock/format.js';
import { formatMinor } from '../../lib/money.js';

/** Money as the dashboard shows it: `12.50 USD`. */
export const money = (minor: number | null, currency: string) => (minor === null ? '—' : `${formatMinor(minor)} ${currency}`);

/** A time as `2026-11-21 10:00:00` (UTC), or a dash. */
export const when = (ms: number | null | undefined) => (ms === null || ms === undefined ? '—' : formatTimestamp(ms).slice(0, 19).replace('T', ' '));

export const day = (ms: number | null | undefined) => (ms === null || ms === undefined ? '—' : formatDate(ms));

/** A `YYYY-MM-DD` (or timestamp) filter bound: the start of that day, or the end of it for `end`. */
export function bound(text: string, end: boolean): number | undefined {
  if (!text) return undefined;
  const ms = parseTimestamp(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  if (ms === undefined) return undefined;
  return end && /^\d{4}-\d{2}-\d{2}$/.test(text) ? ms + 86_400_000 - 1 : ms;
}

/** Splits a newest-first list into pages of `size`; `page` counts from 1. */
export function pageOf<T>(items: readonly T[], pageText: string, size = 25): { items: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const page = Math.min(pages, Math.max(1, Number.parseInt(pageText, 10) || 1));
  return { items: items.slice((page - 1) * size, page * size), page, pages };
}

/** A virtual time as a person reads it: `Sun, 31 Jan 2027 09:00:00 UTC`. */
export const longDate = (ms: number) => new Date(ms).toUTCString().replace('GMT', 'UTC');

/**
 * How far the virtual clock is from real time, in its two largest units: `+32 d 4 h`,
 * `+3 h 5 min`, `-45 s`; `none: real time` within half a second. A count of seconds means nothing at a glance.
 */
export function offsetText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds === 0) return 'none: real time';
  const abs = Math.abs(seconds);
  const units: [number, string][] = [
    [Math.floor(abs / 86_400), 'd'],
    [Math.floor((abs % 86_400) / 3600), 'h'],
    [Math.floor((abs % 3600) / 60), 'min'],
    [abs % 60, 's'],
  ];
  const first = units.findIndex(([n]) => n > 0);
  const shown = units.slice(first, first + 2).filter(([n]) => n > 0);
  return `${seconds < 0 ? '-' : '+'}${shown.map(([n, unit]) => `${n} ${unit}`).join(' ')}`;
}

const UNITS = { daily: 'day', weekly: 'week', monthly: 'month', yearly: 'year' } as const;

/** A schedule's cadence: `monthly`, or `every 3 months`. */
export const cadence = (frequency: keyof typeof UNITS, count: number) => (count > 1 ? `every ${count} ${UNITS[frequency]}s` : frequency);
