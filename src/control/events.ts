import type { Reply } from '../http/envelope.js';
import { Conflict, NotFound } from '../http/errors.js';
import { control, type ApiContext } from '../http/route.js';
import { presentAttempt, presentEvent } from '../webhooks/present.js';
import { Events, eventReference, type EventRecord } from '../webhooks/records.js';
import { scopeKey } from '../lib/scope-key.js';
import { errors } from '../schemas/wire.js';
import { eventStream, type EventTable, type eventWire } from '../schemas/control.js';

/** `GET /_payemu/events`' query: `event` one of `names`. */
const listQuery = (names: readonly string[]) =>
  ({
    type: 'object',
    properties: {
      event: { type: 'string', enum: names },
      reference: { type: 'string' },
      delivery_status: { type: 'string', enum: ['pending', 'retrying', 'delivered', 'failed', 'no_endpoint'] },
      limit: { type: 'integer', minimum: 1, maximum: 1000 },
    },
  }) as const;

type ListQuery = { event?: string; reference?: string; delivery_status?: string; limit?: number };

function findEvent(ctx: ApiContext, id: string): EventRecord {
  const event = ctx.app.store.get(Events, id);
  if (!event || event.source !== ctx.scope.source.slug || event.mode !== ctx.scope.mode) throw new NotFound(`No event with id "${id}".`);
  return event;
}

/**
 * The control plane's event log: list, one event with its attempts, resend, live stream. Its
 * answers' schemas are made from the catalogue's events (`eventWire`), which it is handed.
 */
export const eventRoutes = ({ names, event, eventList }: Pick<ReturnType<typeof eventWire<EventTable>>, 'names' | 'event' | 'eventList'>) => [
  control<Record<string, never>, ListQuery>({
    method: 'GET',
    path: '/_payemu/events',
    summary: "List the events of the key's Source and mode, newest first",
    query: listQuery(names),
    responses: { 200: eventList },
    handle: ({ app, scope, query }) => {
      const all = app.store.find(Events, 'scope', scopeKey(scope.source.slug, scope.mode));
      const limit = query.limit ?? 100;
      const events: ReturnType<typeof presentEvent>[] = [];
      // Newest first: the index holds events in the order they were raised.
      for (let i = all.length - 1; i >= 0 && events.length < limit; i--) {
        const event = all[i]!;
        if (query.event && event.event !== query.event) continue;
        if (query.reference !== undefined && eventReference(event) !== query.reference) continue;
        if (query.delivery_status && event.delivery_status !== query.delivery_status) continue;
        events.push(presentEvent(event));
      }
      return { status: 200, json: { events } };
    },
  }),
  control({
    method: 'GET',
    path: '/_payemu/events/stream',
    summary: 'Stream events and delivery attempts as server-sent events',
    responses: { 200: eventStream },
    keyInQuery: true,
    handle: (ctx) => stream(ctx),
  }),
  control({
    method: 'GET',
    path: '/_payemu/events/:id',
    summary: 'Retrieve an event with its delivery attempts',
    responses: { 200: event, 404: errors },
    handle: (ctx) => ({ status: 200, json: presentEvent(findEvent(ctx, ctx.params.id!)) }),
  }),
  control({
    method: 'POST',
    path: '/_payemu/events/:id/resend',
    summary: 'Deliver an event again (a new cycle of attempts)',
    responses: { 200: event, 404: errors, 409: errors },
    body: { type: 'object' },
    handle: (ctx) => {
      const event = findEvent(ctx, ctx.params.id!);
      if (ctx.app.webhooks.isInFlight(event.id)) throw new Conflict('A delivery attempt of this event is in progress; resend it once it has finished.');
      return { status: 200, json: presentEvent(ctx.app.webhooks.resend(event.id)!) };
    },
  }),
];

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
    // Open streams would keep the server from closing: they end when payemu stops.
    app.shutdown.addEventListener('abort', end);
  });
}
