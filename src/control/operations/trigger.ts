import { EVENT_NAMES } from '../../modules.js';
import type { EventName } from '../../types.js';
import type { Mode } from '../../config/types.js';
import { InvalidInput, Unprocessable } from '../../http/errors.js';
import { triggerResult } from '../../schemas/control.js';
import { type Input, operation } from '../operation.js';
import { loadFixtures } from '../triggers/fixtures.js';
import { unknownKeys } from '../triggers/keys.js';
import { runTrigger } from '../triggers/run.js';
import { keepWritten } from '../triggers/written.js';

export const triggerBody = {
  type: 'object',
  required: ['event'],
  properties: {
    event: { type: 'string' },
    data: { type: 'object', additionalProperties: true },
    source: { type: 'string' },
  },
} as const;

type TriggerBody = { event: string; data?: Record<string, unknown>; source?: string };

/** `POST /_payemu/trigger {"event": "payment.completed", "data": {...}}`: makes the event happen through its fixture's API calls. */
export const trigger = operation({
  method: 'POST',
  path: '/_payemu/trigger',
  summary: 'Make an event happen through real API calls (its trigger fixture)',
  description: "A step the API refuses fails the trigger with that step's status and detail.",
  body: triggerBody,
  result: triggerResult,
  errors: [404, 409, 410, 422, 429],
  run: (app, scope, { body }: Input<TriggerBody>) => {
    if (!(EVENT_NAMES as readonly string[]).includes(body.event)) {
      throw InvalidInput.field('event', `Unknown event "${body.event}". Events: ${EVENT_NAMES.join(', ')}.`);
    }
    const fixture = loadFixtures().fixtures.get(body.event);
    const refused = fixture && body.data ? unknownKeys(fixture, body.data) : null;
    if (refused) {
      const [first] = refused.unknown;
      throw InvalidInput.field(
        `data.${first}`,
        `${body.event} takes no data key${refused.unknown.length > 1 ? 's' : ''} ${refused.unknown.map((key) => `"${key}"`).join(', ')}. Its keys: ${refused.takes.join(', ')}.`,
      );
    }
    // `source` runs the trigger as another Source of the merchant, in the key's mode.
    let as = scope;
    if (body.source !== undefined) {
      const sources = app.config().sources;
      const source = sources.find((s) => s.slug === body.source);
      if (!source) throw Unprocessable.field('source', `Unknown Source "${body.source}". Sources: ${sources.map((s) => s.slug).join(', ')}.`);
      as = { source, mode: scope.mode };
    }
    // A number the body's text wrote with more than two decimals reaches the steps as written.
    return runTrigger(app, as, body.event, keepWritten(body.data ?? {}, body));
  },
  client: {
    name: 'trigger',
    args: (event: string, data?: Record<string, unknown>, options: { source?: string } = {}) => ({ body: { event, data, source: options.source } }),
  },
  library: {
    at: 'trigger',
    args: (event: EventName, options: { data?: Record<string, unknown>; source?: string; mode?: Mode } = {}) => ({
      scope: { source: options.source, mode: options.mode },
      input: { body: { event, data: options.data } },
    }),
    async: true,
  },
});
