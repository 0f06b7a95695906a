import { Unprocessable } from '../../http/errors.js';
import { control } from '../../http/route.js';
import { loadFixtures } from './fixtures.js';
import { unknownKeys } from './keys.js';
import { runTrigger } from './run.js';
import { errors } from '../../schemas/wire.js';
import { triggerResult } from '../../schemas/control.js';

export const triggerBody = {
  type: 'object',
  required: ['event'],
  properties: {
    event: { type: 'string' },
    data: { type: 'object' },
    source: { type: 'string' },
  },
} as const;

/** `POST /_payemu/trigger {"event": "payment.completed", "data": {...}}`: makes the event happen (one of `eventNames`, the catalogue's). */
export const triggerRoutes = (eventNames: readonly string[]) => [
  control<{ event: string; data?: Record<string, unknown>; source?: string }>({
    method: 'POST',
    path: '/_payemu/trigger',
    summary: 'Make an event happen through real API calls (its trigger fixture)',
    description: "A step the API refuses fails the trigger with that step's status and detail.",
    responses: { 200: triggerResult, 404: errors, 409: errors, 410: errors, 422: errors, 429: errors },
    body: triggerBody,
    handle: async ({ app, scope, body }) => {
      if (!eventNames.includes(body.event)) {
        throw Unprocessable.field('event', `Unknown event "${body.event}". Events: ${eventNames.join(', ')}.`);
      }
      const fixture = loadFixtures().fixtures.get(body.event);
      const refused = fixture && body.data ? unknownKeys(fixture, body.data) : null;
      if (refused) {
        const [first] = refused.unknown;
        throw Unprocessable.field(
          `data.${first}`,
          `${body.event} takes no data key${refused.unknown.length > 1 ? 's' : ''} ${refused.unknown.map((key) => `"${key}"`).join(', ')}. Its keys: ${refused.takes.join(', ')}.`,
        );
      }
      // `source` runs the trigger as another Source of the merchant, in the key's mode.
      let as = scope;
      if (body.source !== undefined) {
        const source = app.config().sources.find((s) => s.slug === body.source);
        if (!source)
          throw Unprocessable.field(
            'source',
            `Unknown Source "${body.source}". Sources: ${app
              .config()
              .sources.map((s) => s.slug)
              .join(', ')}.`,
          );
        as = { source, mode: scope.mode };
      }
      return { status: 200, json: await runTrigger(app, as, body.event, body.data ?? {}) };
    },
  }),
];
