/**
 * Money is held in integer minor units (cents) inside; the API edge converts. Amounts arrive
 * validated to at most two decimals (the `money` schema keyword), so rounding here only
 * removes binary floating-point noise (0.29 * 100 = 28.999999999999996).
 */
export type Minor = number;

export function toMinor(major: number): Minor {
  return Math.round(major * 100);
}

/** `1234` -> `"12.34"`, computed on integers so no float ever shows up in a string. */
export function formatMinor(minor: Minor): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** For the few places the API shows amounts as numbers (sessions, webhook payloads). */
export function minorToNumber(minor: Minor): number {
  // The same number as `Number(formatMinor(minor))` (both are the double nearest to minor/100,
  // which IEEE division rounds to), without a string per webhook payload.
  return minor / 100;
}

/**
 * An amount as payemu writes it for people, in every output (the terminal UI, the plain log
 * lines, `payemu events`, `payemu pay`): two decimals, then the currency, `25.00 USD`. It takes
 * a payload's number (major units) or the API's text (`"25.00"`); text that is no number is
 * shown as it is, and an amount without a currency is the number alone.
 */
export function formatAmount(amount: number | string, currency: string | null | undefined): string {
  const major = typeof amount === 'number' ? amount : amount.trim() === '' ? Number.NaN : Number(amount);
  const text = Number.isFinite(major) ? formatMinor(toMinor(major)) : String(amount);
  return currency ? `${text} ${currency}` : text;
}

/**
 * What an event's payload says it is worth: its `amount`, else the invoice's `total` (invoice
 * events carry totals, not an amount), with its currency; null for an event without one.
 */
export function payloadAmount(data: Record<string, unknown>): { amount: number; currency: string | null } | null {
  const amount = typeof data.amount === 'number' ? data.amount : typeof data.total === 'number' ? data.total : null;
  if (amount === null) return null;
  return { amount, currency: typeof data.currency === 'string' ? data.currency : null };
}
