import { formatTimestamp } from '../clock/format.js';
import { attemptState, type Attempt } from '../webhooks/records.js';
import type { EventRow, Target } from './state.js';

/** Text of the terminal UI's cells: pure, so the views stay layout only. */

export type Tone = 'ok' | 'warn' | 'bad' | 'dim' | 'plain';

/** `HH:MM:SS` of a virtual time. */
export function clockTime(ms: number): string {
  return formatTimestamp(ms).slice(11, 19);
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

export function amountText(row: Pick<EventRow, 'amount' | 'currency'>): string {
  if (row.amount === null) return '';
  return `${row.amount.toFixed(2)}${row.currency ? ` ${row.currency}` : ''}`;
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

/** The delivery column: pending, delivered with status, retrying with attempt count, failed. */
export function deliveryText(row: Pick<EventRow, 'delivery' | 'attempts' | 'cycleAttempts'>): { text: string; tone: Tone } {
  const last = row.attempts[row.attempts.length - 1];
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

/** Whether a Source's endpoint answers, from its last delivery (the UI never probes it). */
export function targetText(target: Target | undefined): { text: string; tone: Tone } {
  if (!target?.url) return { text: 'none (events are recorded, not sent; set webhook_url or --webhook-url)', tone: 'dim' };
  const last = target.last;
  if (!last) return { text: `${target.url}  not tried yet`, tone: 'plain' };
  if (last.ok) return { text: `${target.url}  answers (${last.status})`, tone: 'ok' };
  return { text: `${target.url}  ${last.status !== null ? `answered ${last.status}` : `not answering (${outcome(last)})`}`, tone: 'bad' };
}

export function requestTone(status: number): Tone {
  return status >= 500 ? 'bad' : status >= 400 ? 'warn' : 'ok';
}

/** The response body of an attempt on one line, for the attempts table. */
export function oneLine(text: string | null, max: number): string {
  if (!text) return '';
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, Math.max(0, max - 1))}…` : flat;
}

/** `text` cut or padded to exactly `width` characters (a cut ends in …). */
export function cell(text: string, width: number): string {
  if (width <= 0) return '';
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}
