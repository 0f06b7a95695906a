/** Durations as users write them: `30d`, `12h`, `90m`, `45s`, `250ms`, or seconds as a number. */
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const PATTERN = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?$/;

/** Returns milliseconds, or undefined when the text is not a duration. */
export function parseDuration(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value * 1000) : undefined;
  const match = PATTERN.exec(value.trim());
  if (!match) return undefined;
  return Math.round(Number(match[1]) * UNITS[match[2] ?? 's']!);
}
