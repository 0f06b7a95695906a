/** Timestamps and dates as the API shows them. Internally time is epoch milliseconds. */

// The text up to the second ("2026-11-21T10:00:00.") of the last few seconds formatted: an
// answer and its log line format several timestamps (now, and an expiry a day later), and
// toISOString is the costly part. Four entries, replaced oldest first.
const cachedSeconds = [Number.NaN, Number.NaN, Number.NaN, Number.NaN];
const cachedPrefixes = ['', '', '', ''];
let nextSlot = 0;

/** `2026-11-21T10:00:00.000000Z`: ISO 8601 UTC with microseconds. */
export function formatTimestamp(ms: number): string {
  const t = Math.trunc(ms); // as `new Date(ms)` does
  const second = Math.floor(t / 1000);
  let prefix: string | undefined;
  for (let i = 0; i < 4; i++) {
    if (cachedSeconds[i] === second) {
      prefix = cachedPrefixes[i];
      break;
    }
  }
  if (prefix === undefined) {
    const iso = new Date(t).toISOString(); // 2026-11-21T10:00:00.000Z (throws on an invalid time)
    if (iso.length !== 24) return `${iso.slice(0, 23)}000Z`; // a year outside 0000-9999, uncached
    prefix = iso.slice(0, 20);
    cachedSeconds[nextSlot] = second;
    cachedPrefixes[nextSlot] = prefix;
    nextSlot = (nextSlot + 1) & 3;
  }
  const milli = t - second * 1000;
  return `${prefix}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}000Z`;
}

/** `formatTimestamp`, or null for a time that is not set (absent or null): the API's optional timestamps. */
export const formatOptionalTimestamp = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : formatTimestamp(ms));

let cachedDay = Number.NaN;
let cachedDate = '';

/** `YYYY-MM-DD` in UTC. The last day formatted is kept: billing runs a day's charges together. */
export function formatDate(ms: number): string {
  const day = Math.floor(ms / 86_400_000);
  if (day !== cachedDay) {
    cachedDate = new Date(ms).toISOString().slice(0, 10);
    cachedDay = day;
  }
  return cachedDate;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Parses an ISO 8601 date or date-time into epoch ms; a bare date is 00:00 UTC, a date-time
 * without a zone is UTC. Returns undefined when the text is not a real date.
 */
export function parseTimestamp(text: string): number | undefined {
  let iso = text.trim();
  if (DATE_ONLY.test(iso)) iso += 'T00:00:00Z';
  else if (!DATE_TIME.test(iso)) return undefined;
  else if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(iso)) iso += 'Z';
  // Sub-millisecond digits are more than Date parses; drop them.
  iso = iso.replace(' ', 'T').replace(/(\.\d{3})\d+/, '$1');
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return undefined;
  // Date.parse rolls 2026-02-30 over to March; a real date must survive the round trip.
  const day = text.trim().slice(0, 10);
  if (DATE_ONLY.test(day) && new Date(Date.parse(`${day}T00:00:00Z`)).toISOString().slice(0, 10) !== day) return undefined;
  return ms;
}

/**
 * An ISO 8601 date or date-time as a bound to compare stored times with, exact at any precision
 * it is written in (`.123456Z`, even `.123456789Z`). Stored times are whole milliseconds (every
 * timestamp payemu shows ends in `000` microseconds), so the instant lies in [floor, ceil]:
 * the whole milliseconds either side of it, equal when it has no digits past the millisecond.
 * A stored time t is after the instant exactly when t > floor, and before it when t < ceil.
 */
export function parseBound(text: string): { floor: number; ceil: number } | undefined {
  const floor = parseTimestamp(text);
  if (floor === undefined) return undefined;
  const beyondMillis = /\.\d{3}(\d+)/.exec(text)?.[1] ?? '';
  return { floor, ceil: /[1-9]/.test(beyondMillis) ? floor + 1 : floor };
}

/** Start of the UTC day that holds `ms`. */
export function startOfDay(ms: number): number {
  return ms - (((ms % 86_400_000) + 86_400_000) % 86_400_000);
}
