import { EVENT_WIRE } from '../../modules.js';
import { presentEvent } from '../../webhooks/present.js';
import { eventScope, findEvent } from '../events.js';
import type { EventView } from '../types.js';
import { type Input, operation } from '../operation.js';

/** `GET /_payemu/events/:id`: one event with its delivery attempts. The library reads any Source's, and answers undefined for none. */
export const eventGet = operation({
  method: 'GET',
  path: '/_payemu/events/:id',
  summary: 'Retrieve an event with its delivery attempts',
  result: EVENT_WIRE.event,
  errors: [404],
  run: (app, scope, { params }: Input<never, never, 'id'>) => presentEvent(findEvent(app, scope, params.id)),
  client: { name: 'event', args: (id: string) => ({ params: { id } }), result: (found): EventView => found as EventView },
  library: { at: 'events.get', args: (id: string) => ({ scope: (app) => eventScope(app, id), input: { params: { id } } }), error: () => undefined },
});
