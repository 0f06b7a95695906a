import { Conflict } from '../../http/errors.js';
import { EVENT_WIRE } from '../../modules.js';
import { presentEvent } from '../../webhooks/present.js';
import { eventScope, findEvent } from '../events.js';
import type { EventView } from '../types.js';
import { type Input, operation } from '../operation.js';

/** `POST /_payemu/events/:id/resend`: a new cycle of delivery attempts, with the same id. The library answers undefined for no such event. */
export const eventResend = operation({
  method: 'POST',
  path: '/_payemu/events/:id/resend',
  summary: 'Deliver an event again (a new cycle of attempts)',
  body: { type: 'object' },
  result: EVENT_WIRE.event,
  errors: [404, 409],
  run: (app, scope, { params }: Input<never, never, 'id'>) => {
    const found = findEvent(app, scope, params.id);
    if (app.webhooks.isInFlight(found.id)) throw new Conflict('A delivery attempt of this event is in progress; resend it once it has finished.');
    return presentEvent(app.webhooks.resend(found.id)!);
  },
  client: { name: 'resendEvent', args: (id: string) => ({ params: { id }, body: {} }), result: (sent): EventView => sent as EventView },
  library: {
    at: 'events.resend',
    args: (id: string) => ({ scope: (app) => eventScope(app, id), input: { params: { id } } }),
    error: (error) => {
      if (error.status === 404) return undefined;
      throw error;
    },
  },
});
