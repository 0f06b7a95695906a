import type { App } from '../app.js';
import { Unprocessable } from '../http/errors.js';
import { control } from '../http/route.js';
import { Meta } from '../resources/meta/records.js';
import { parseDuration } from './duration.js';
import { formatTimestamp, parseTimestamp } from './format.js';
import type { RunReport } from './scheduler.js';

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

/**
 * Moves the one clock forward to `target`, running every job that falls due on the way, in
 * time order and each at its own timestamp; then saves the clock so a restart continues there.
 */
export function advanceClock(app: App, target: number): RunReport {
  const report = app.scheduler.runDue(target);
  app.clock.moveTo(target);
  app.store.transaction((tx) => tx.put(Meta, { id: 'clock', clock: app.clock.state() }));
  app.bus.emit('clock.advanced', { now: app.clock.now(), ran: report.ran });
  return report;
}

export const clockRoutes = [
  control({
    method: 'GET',
    path: '/_payemu/clock',
    handle: ({ app }) => ({ status: 200, json: clockView(app) }),
  }),
  control<{ by?: string | number; to?: string }>({
    method: 'POST',
    path: '/_payemu/clock/advance',
    body: advanceBody,
    handle: ({ app, body, now }) => {
      const target = targetOf(body, now);
      const report = advanceClock(app, target);
      return { status: 200, json: { ...clockView(app), ran: report.ran, items: report.items } };
    },
  }),
];

function targetOf(body: { by?: string | number; to?: string }, now: number): number {
  if ((body.by === undefined) === (body.to === undefined)) {
    throw new Unprocessable('Send either "by" (a duration such as "30d", "12h", "90m" or seconds) or "to" (a timestamp).', {
      by: ['Send either by or to.'],
    });
  }
  if (body.by !== undefined) {
    const ms = parseDuration(body.by);
    if (ms === undefined) throw Unprocessable.field('by', 'The by field must be a duration such as "30d", "12h", "90m", "45s" or a number of seconds.');
    if (ms > 100 * 365 * 86_400_000) throw Unprocessable.field('by', 'The by field must not be more than 100 years.');
    return now + ms;
  }
  const to = parseTimestamp(body.to!);
  if (to === undefined) throw Unprocessable.field('to', 'The to field must be an ISO 8601 timestamp.');
  if (to < now) throw Unprocessable.field('to', 'The clock only moves forward: the to field must not be in the past.');
  return to;
}
