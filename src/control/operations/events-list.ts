import { EVENT_NAMES, EVENT_WIRE } from '../../modules.js';
import { scopeKey } from '../../lib/scope-key.js';
import { presentEvent } from '../../webhooks/present.js';
import { Events, eventReference } from '../../webhooks/records.js';
import type { EventView } from '../types.js';
import { type Input, operation } from '../operation.js';

const listQuery = {
  type: 'object',
  properties: {
    event: { type: 'string', enum: EVENT_NAMES },
    reference: { type: 'string' },
    delivery_status: { type: 'string', enum: ['pending', 'retrying', 'delivered', 'failed', 'no_endpoint'] },
    limit: { type: 'integer', minimum: 1, maximum: 1000 },
  },
} as const;

/** What `GET /_payemu/events` filters on. */
export interface EventFilter {
  event?: string;
  reference?: string;
  delivery_status?: string;
  limit?: number | string;
}

/**
 * `GET /_payemu/events`: the event log of the key's Source and mode, newest first. The library's
 * `events.list` is not this operation: it reads every Source and mode (src/emulator/events.ts).
 */
export const eventsList = operation({
  method: 'GET',
  path: '/_payemu/events',
  summary: "List the events of the key's Source and mode, newest first",
  query: listQuery,
  result: EVENT_WIRE.eventList,
  run: (app, scope, { query }: Input<never, { event?: string; reference?: string; delivery_status?: string; limit?: number }>) => {
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
    return { events };
  },
  client: { name: 'events', args: (filter: EventFilter = {}) => ({ query: { ...filter } }), result: (answer) => answer.events as EventView[] },
});
