import type { App } from '../app.js';
import { InvalidInput, Unprocessable } from '../http/errors.js';
import type { Transaction } from '../store/store.js';
import { Meta } from '../resources/meta/records.js';
import { parseDuration } from '../clock/duration.js';
import { formatTimestamp, parseTimestamp } from '../clock/format.js';
import type { RunReport } from '../clock/scheduler.js';

export const advanceBody = {
  type: 'object',
  properties: {
    by: { type: ['string', 'number'] },
    to: { type: 'string' },
  },
} as const;

export function clockView(app: App) {
  return { now: formatTimestamp(app.clock.now()), offset_seconds: Math.round(app.clock.offsetMs() / 1000), frozen: app.clock.frozen() };
}

/** One advance moves the clock at most ten years: the work of a longer span would hold payemu for minutes. */
export const MAX_ADVANCE_DAYS = 3653;
const MAX_ADVANCE_MS = MAX_ADVANCE_DAYS * 86_400_000;

/**
 * Moves the one clock forward to `target` (read when this advance's turn comes: advances take
 * turns), running every job that falls due on the way, in time order and each at its own
 * timestamp. The clock moves and is stored with each batch of work, in the batch's own
 * transaction: a crash in the middle restarts at the last batch stored, with nothing lost and
 * nothing run twice. Between batches the event loop answers other requests.
 *
 * Webhook retries due within the span run in the same time order, each awaited (it ends with
 * an answer or by `--webhook-timeout`) before the clock moves past it, after the attempts
 * already out when the advance begins have ended; they are reported as `webhook.retry`.
 */
export async function advanceClock(
  app: App,
  target: number | ((now: number) => number),
  last?: (tx: Transaction, report: RunReport & { now: number }) => void,
): Promise<RunReport & { now: number }> {
  const report = await app.scheduler.advance(
    typeof target === 'function' ? target : () => target,
    (tx) => tx.put(Meta, { id: 'clock', clock: app.clock.state() }),
    app.webhooks.retries,
    last,
  );
  app.bus.emit('clock.advanced', { now: report.now, ran: report.ran });
  return report;
}

/** A duration or a number of seconds as milliseconds, within one advance's limit; the message says what is wrong. */
export function advanceSpan(by: string | number): number | string {
  const ms = parseDuration(by);
  if (ms === undefined) return 'must be a duration such as "30d", "12h", "90m", "45s" or a number of seconds';
  if (ms > MAX_ADVANCE_MS) return `must not be more than ${MAX_ADVANCE_DAYS} days (ten years) in one advance`;
  return ms;
}

/** The advance's target as a function of the clock when its turn comes (`by` counts from then). */
export function targetOf(body: { by?: string | number; to?: string }, now: number): (now: number) => number {
  if ((body.by === undefined) === (body.to === undefined)) {
    throw new InvalidInput('Send either "by" (a duration such as "30d", "12h", "90m" or seconds) or "to" (a timestamp).', {
      by: ['Send either by or to.'],
    });
  }
  if (body.by !== undefined) {
    const ms = advanceSpan(body.by);
    // Not a duration: the request's form. Over ten years: payemu's rule, kept with a key as /v1 keeps a service's 422.
    if (typeof ms === 'string') throw (parseDuration(body.by) === undefined ? InvalidInput : Unprocessable).field('by', `The by field ${ms}.`);
    return (from) => from + ms;
  }
  const to = parseTimestamp(body.to!);
  if (to === undefined) throw InvalidInput.field('to', 'The to field must be an ISO 8601 timestamp.');
  if (to < now) throw Unprocessable.field('to', 'The clock only moves forward: the to field must not be in the past.');
  if (to - now > MAX_ADVANCE_MS)
    throw Unprocessable.field('to', `The to field must not be more than ${MAX_ADVANCE_DAYS} days (ten years) ahead of the clock in one advance.`);
  return (from) => Math.max(from, to);
}
