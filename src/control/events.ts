import type { App } from '../app.js';
import type { Scope } from '../http/auth.js';
import type { Reply } from '../http/envelope.js';
import { NotFound } from '../http/errors.js';
import { control, type ApiContext } from '../http/route.js';
import { presentAttempt, presentEvent } from '../webhooks/present.js';
import { Events, type EventRecord } from '../webhooks/records.js';
import { eventStream } from '../schemas/control.js';

/** `GET /_payemu/events/stream`, the live events: a route (an event stream, not a JSON operation). */
export const eventStreamRoute = control({
  method: 'GET',
  path: '/_payemu/events/stream',
  summary: 'Stream events and delivery attempts as server-sent events',
  responses: { 200: eventStream },
  keyInQuery: true,
  handle: (ctx) => stream(ctx),
});

/** The event `id` of the scope, or a 404. */
export function findEvent(app: App, scope: Scope, id: string): EventRecord {
  const event = app.store.get(Events, id);
  if (!event || event.source !== scope.source.slug || event.mode !== scope.mode) throw new NotFound(`No event with id "${id}".`);
  return event;
}

/** The scope of the event `id` (the library reads any Source's events), or undefined. */
export function eventScope(app: App, id: string): Scope | undefined {
  const event = app.store.get(Events, id);
  const source = event && app.config().sources.find((s) => s.slug === event.source);
  return source && { source, mode: event.mode };
}

/**
 * Server-sent events of the caller's Source and mode: `event: event` when an event is raised,
 * `event: attempt` when a delivery attempt finishes. Comments keep idle connections open.
 */
function stream(ctx: ApiContext): Promise<Reply> {
  const { app, res, scope, req } = ctx;
  const mine = (source: string, mode: string) => source === scope.source.slug && mode === scope.mode;
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
  res.write(': payemu event stream\n\n');
  const send = (name: string, data: unknown) => res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  const off = [
    app.bus.on('domain', (e) => {
      if (!mine(e.source, e.mode)) return;
      const record = app.store.get(Events, e.id);
      if (record) send('event', presentEvent(record));
    }),
    app.bus.on('webhook.attempt', ({ event, attempt }) => {
      if (mine(event.source, event.mode))
        send('attempt', { event_id: event.id, event: event.event, delivery_status: event.delivery_status, attempt: attempt && presentAttempt(attempt) });
    }),
  ];
  const keepAlive = app.timers.every(15_000, () => res.write(': keep-alive\n\n'));
  return new Promise((resolve) => {
    const end = () => {
      keepAlive.cancel();
      for (const unsubscribe of off) unsubscribe();
      app.shutdown.removeEventListener('abort', end);
      if (!res.writableEnded) res.end();
      // The answer was streamed: nothing is left for the envelope writer to send.
      resolve({ status: 200, streamed: true });
    };
    req.once('close', end);
    res.once('close', end);
    // Open streams would keep the server from closing: they end when payemu stops, and one
    // asked for while it stops (a dashboard's reconnect on a kept-alive connection) at once.
    if (app.shutdown.aborted) end();
    else app.shutdown.addEventListener('abort', end);
  });
}
