import { formatTimestamp } from '../clock/format.js';
import { formatAmount } from '../lib/money.js';
import { attemptState, type Attempt } from '../webhooks/records.js';
import type { EventRow, Target } from './state.js';

/** Text of the terminal UI's cells: pure, so the views stay layout only. */

export type Tone = 'ok' | 'warn' | 'bad' | 'dim' | 'plain';

/** `HH:MM:SS` of a virtual time. */
export function clockTime(ms: number): string {
  return formatTimestamp(ms).slice(11, 19);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** `Dec 28 10:00:00`: a virtual time with its day (the header shows the year). */
export function clockDayTime(ms: number): string {
  const iso = formatTimestamp(ms);
  return `${MONTHS[Number(iso.slice(5, 7)) - 1]} ${iso.slice(8, 10)} ${iso.slice(11, 19)}`;
}

/**
 * Whether the UI's times show their day: once the virtual clock is on another day (UTC) than the
 * real one, or an event kept is (raised before a reset, or the day before): after a 30-day
 * advance, events a month apart would otherwise look seconds apart.
 */
export function showsDays(clock: { now: number; offsetMs: number }, times: readonly number[]): boolean {
  const today = dayOf(clock.now - clock.offsetMs);
  return dayOf(clock.now) !== today || times.some((at) => dayOf(at) !== today);
}

const dayOf = (ms: number) => Math.floor(ms / 86_400_000);

/** A time of the events and attempts tables: `10:00:00`, or `Dec 28 10:00:00` when days show. */
export function timeText(ms: number, days: boolean): string {
  return days ? clockDayTime(ms) : clockTime(ms);
}

/** `2026-11-21 10:00:00 UTC` */
export function clockDateTime(ms: number): string {
  const iso = formatTimestamp(ms);
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

/** How far the virtual clock is from real time: `real time +1d 02:00:00`, `real time -00:05:00`, `real time`. */
export function clockOffset(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds === 0) return 'real time';
  const abs = Math.abs(seconds);
  const days = Math.floor(abs / 86_400);
  const rest = abs % 86_400;
  const hms = [Math.floor(rest / 3600), Math.floor((rest % 3600) / 60), rest % 60].map((n) => String(n).padStart(2, '0')).join(':');
  return `real time ${seconds < 0 ? '-' : '+'}${days > 0 ? `${days}d ` : ''}${hms}`;
}

/** A row's namespace as its key's suffix writes it (`~w3`), or empty for the default namespace. */
export function namespaceText(row: { namespace?: string }): string {
  return row.namespace === undefined ? '' : `~${row.namespace}`;
}

/** The namespace column of a list: as wide as the widest `~NAME` in view and two blanks, within bounds (a name may have 32 characters). */
export function namespaceWidth(rows: readonly { namespace?: string }[], width: number): number {
  return Math.min(width >= 120 ? 34 : 14, Math.max(5, ...rows.map((r) => textWidth(namespaceText(r)) + 2)));
}

/** An event's amount as every output writes it (`25.00 USD`), or empty when it has none. */
export function amountText(row: Pick<EventRow, 'amount' | 'currency'>): string {
  return row.amount === null ? '' : formatAmount(row.amount, row.currency);
}

/** An attempt's outcome in a few characters: the status, else the kind of failure (or `sending`). */
export function outcome(attempt: Pick<Attempt, 'status' | 'error' | 'state'>): string {
  if (attempt.state === 'in_progress') return 'sending';
  if (attempt.state === 'interrupted') return 'interrupted';
  if (attempt.status !== null) return String(attempt.status);
  const error = attempt.error ?? 'no answer';
  if (error.startsWith('timed out')) return 'timed out';
  if (error.startsWith('blocked by')) return 'blocked';
  // `ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9` -> `ECONNREFUSED`
  return error.split(':')[0]!.slice(0, 24);
}

/**
 * An attempt's tone: an attempt still out is no failure (yet), and an interrupted one says
 * nothing about the receiver (payemu stopped), so neither is shown as one.
 */
export function attemptTone(attempt: Pick<Attempt, 'status' | 'state'>): Tone {
  const state = attemptState(attempt);
  return state === 'succeeded' ? 'ok' : state === 'failed' ? 'bad' : state === 'interrupted' ? 'warn' : 'dim';
}

/** `12 ms`; empty while the attempt is out, or when it was interrupted (its end was not seen). */
export function durationText(attempt: Pick<Attempt, 'state' | 'duration_ms'>): string {
  return attempt.state ? '' : `${attempt.duration_ms} ms`;
}

/** The webhook chaos an attempt carried, as a tag (`[stale_timestamp]`), or empty. */
export function chaosTag(attempt: Pick<Attempt, 'chaos'> | undefined): string {
  return attempt?.chaos ? `[${attempt.chaos}]` : '';
}

/**
 * The delivery column: pending, delivered with status, retrying with attempt count, failed;
 * with the webhook chaos the last attempt carried (`delivered 200 [duplicate]`).
 */
export function deliveryText(row: Pick<EventRow, 'delivery' | 'attempts' | 'cycleAttempts'>): { text: string; tone: Tone } {
  const last = row.attempts[row.attempts.length - 1];
  const plain = deliveryState(row, last);
  const tag = chaosTag(last);
  return tag ? { text: `${plain.text} ${tag}`, tone: plain.tone } : plain;
}

function deliveryState(row: Pick<EventRow, 'delivery' | 'cycleAttempts'>, last: Attempt | undefined): { text: string; tone: Tone } {
  switch (row.delivery) {
    case 'pending':
      return { text: last?.state === 'in_progress' ? 'sending' : 'pending', tone: 'dim' };
    case 'delivered':
      return { text: `delivered ${last ? outcome(last) : ''}`.trim(), tone: 'ok' };
    case 'retrying':
      // `retrying ×2 500`: two attempts of this cycle so far, the last answered 500.
      return { text: `retrying ×${row.cycleAttempts} ${last ? outcome(last) : ''}`.trim(), tone: 'warn' };
    case 'failed':
      return { text: `failed ${last ? outcome(last) : ''}`.trim(), tone: 'bad' };
    case 'no_endpoint':
      return { text: 'no endpoint', tone: 'dim' };
  }
}

/**
 * Whether a Source's endpoint answers, from its last delivery (the UI never probes it): `text` is
 * the whole of it; `url` and `state` its two parts, when there is an endpoint (the header cuts a
 * long URL, never the state).
 */
export function targetText(target: Target | undefined): { text: string; tone: Tone; url?: string; state?: string } {
  // Short enough for an 80-column terminal after the header's indent and a long slug.
  if (!target?.url) return { text: 'none (not sent): set webhook_url or --webhook-url', tone: 'dim' };
  const last = target.last;
  const [state, tone]: [string, Tone] = !last
    ? ['not tried yet', 'plain']
    : last.ok
      ? [`answers (${last.status})`, 'ok']
      : [last.status !== null ? `answered ${last.status}` : `not answering (${outcome(last)})`, 'bad'];
  return { text: `${target.url}  ${state}`, tone, url: target.url, state };
}

export function requestTone(status: number): Tone {
  return status >= 500 ? 'bad' : status >= 400 ? 'warn' : 'ok';
}

/** The response body of an attempt on one line, for the attempts table (cut to `max` columns). */
export function oneLine(text: string | null, max: number): string {
  if (!text) return '';
  return clip(text.replace(/\s+/g, ' ').trim(), max);
}

// Widths on a terminal. Every line of the terminal UI is cut to the terminal's width in display
// columns, not UTF-16 units: a reference, a path or a payload may hold CJK text or emoji (two
// columns each) or combining marks (none), and a line one column too wide wraps into the next row.

/** Display columns of one code point: 0 for combining marks and zero-width characters, 2 for wide ones, else 1. */
export function charWidth(codePoint: number): number {
  if (codePoint < 0x300) return 1;
  const char = String.fromCodePoint(codePoint);
  if (/[\p{Mn}\p{Me}\p{Cf}]/u.test(char)) return 0;
  if (isWide(codePoint) || /\p{Emoji_Presentation}/u.test(char)) return 2;
  return 1;
}

/** East Asian Wide and Fullwidth ranges (Hangul, CJK, kana, fullwidth forms, CJK extensions). */
function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0x303e) ||
    (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xa960 && cp <= 0xa97f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe10 && cp <= 0xfe19) ||
    (cp >= 0xfe30 && cp <= 0xfe6f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/** Control characters (a line break, a tab, an escape) as spaces: a cell stays on its line and draws nothing of its own. */
export function flat(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
}

/** Display columns of `text` (after `flat`). */
export function textWidth(text: string): number {
  let width = 0;
  for (const char of flat(text)) width += charWidth(char.codePointAt(0)!);
  return width;
}

/** `text` on one line, cut to at most `width` columns; a cut ends in `…`. */
export function clip(text: string, width: number): string {
  const line = flat(text);
  if (width <= 0) return '';
  if (textWidth(line) <= width) return line;
  // Blanks past the end are no content: they go without a mark.
  const trimmed = line.trimEnd();
  if (textWidth(trimmed) <= width) return trimmed;
  let out = '';
  let used = 0;
  for (const char of line) {
    const w = charWidth(char.codePointAt(0)!);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}

/** `text` padded with spaces to `width` columns (not cut). */
export function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - textWidth(text)));
}

/**
 * A table cell `width` columns wide: `text` cut to leave at least one blank column before the
 * next cell (a cut ends in `…`), then padded. Cells of the same widths line up across rows.
 */
export function cell(text: string, width: number): string {
  if (width <= 0) return '';
  return pad(clip(text, width - 1), width);
}

/**
 * A column of a table: `width` columns wanted (its blank separator included). On a terminal too
 * narrow for every column, the ones with the lowest `drop` go first (a column without `drop`
 * always stays); `flex` columns give up width down to `min` before any column is dropped, and take
 * what a wide terminal has to spare, up to `max`.
 */
export interface ColumnSpec<K extends string> {
  key: K;
  width: number;
  min?: number;
  max?: number;
  drop?: number;
  flex?: boolean;
}

/**
 * The widths of the columns that fit in a line `width` columns wide, in order (dropped ones are
 * absent). The last column shown takes what is left of the line.
 */
export function fitColumns<K extends string>(width: number, specs: readonly ColumnSpec<K>[]): { key: K; width: number }[] {
  // The last column needs no blank after it: its separator may hang past the line's end.
  const total = width + 1;
  let kept = specs.slice();
  const least = (s: ColumnSpec<K>) => (s.flex ? Math.min(s.min ?? s.width, s.width) : s.width);
  for (;;) {
    const need = kept.reduce((sum, s) => sum + least(s), 0);
    const droppable = kept.filter((s) => s.drop !== undefined);
    if (need <= total || droppable.length === 0) break;
    const next = droppable.reduce((a, b) => (b.drop! < a.drop! ? b : a));
    kept = kept.filter((s) => s !== next);
  }
  const widths = kept.map((s) => ({ key: s.key, width: least(s) }));
  let spare = total - widths.reduce((sum, c) => sum + c.width, 0);
  // First the flex columns grow back to their wanted width, then up to their max.
  for (const pass of ['wanted', 'max'] as const) {
    kept.forEach((s, i) => {
      if (!s.flex || spare <= 0) return;
      const target = pass === 'wanted' ? s.width : (s.max ?? Number.POSITIVE_INFINITY);
      const grow = Math.max(0, Math.min(spare, target - widths[i]!.width));
      widths[i]!.width += grow;
      spare -= grow;
    });
  }
  // The last column takes the rest of the line.
  if (widths.length > 0) widths[widths.length - 1]!.width = Math.max(0, widths[widths.length - 1]!.width + spare);
  return widths;
}
