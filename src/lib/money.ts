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
