import { Unprocessable } from '../http/errors.js';
import { controlAt } from '../http/route.js';
import { errors } from '../schemas/wire.js';
import { scopeKey } from '../lib/scope-key.js';
import { checkChaos, WebhookChaos, type WebhookChaosSettings } from '../webhooks/chaos.js';
import { webhookChaos } from '../schemas/control.js';

/**
 * `/_payemu/webhook-chaos` (docs/control-plane.md, docs/chaos.md): the key's Source and mode's
 * webhook chaos. `PUT` replaces it, `GET` reads it, `DELETE` turns it off (`GET` then answers
 * `{}`). Stored, so it survives a restart; a reset leaves it (it is how payemu behaves, not data).
 */
const body = {
  type: 'object',
  properties: {
    duplicate: { type: 'number', minimum: 0, maximum: 1 },
    delay: { type: 'string' },
    stale_timestamp: { type: 'number', minimum: 0, maximum: 1 },
    bad_signature: { type: 'number', minimum: 0, maximum: 1 },
    seed: { type: 'integer', minimum: 0, maximum: 4294967295 },
  },
  additionalProperties: false,
} as const;

const chaos = controlAt('/_payemu/webhook-chaos');

export const webhookChaosRoutes = [
  chaos.get({
    summary: "Read the webhook chaos of the key's Source and mode (`{}` when off)",
    responses: { 200: webhookChaos },
    handle: ({ app, scope }) => ({ status: 200, json: app.store.get(WebhookChaos, scopeKey(scope.source.slug, scope.mode))?.settings ?? {} }),
  }),
  chaos.put<WebhookChaosSettings>({
    summary: "Replace the webhook chaos of the key's Source and mode: duplicates, delays, stale timestamps, bad signatures",
    body,
    responses: { 200: webhookChaos, 422: errors },
    handle: ({ app, scope, body }) => {
      // The schema has checked the types; the duration and its bound are checked here.
      const checked = checkChaos(body);
      if ('field' in checked) throw Unprocessable.field(checked.field, checked.message);
      const id = scopeKey(scope.source.slug, scope.mode);
      app.store.transaction((tx) => tx.put(WebhookChaos, { id, source: scope.source.slug, mode: scope.mode, settings: checked.settings }));
      return { status: 200, json: checked.settings };
    },
  }),
  chaos.delete({
    summary: "Turn the webhook chaos of the key's Source and mode off",
    responses: { 200: webhookChaos },
    handle: ({ app, scope }) => {
      const id = scopeKey(scope.source.slug, scope.mode);
      if (app.store.get(WebhookChaos, id)) app.store.transaction((tx) => tx.delete(WebhookChaos, id));
      return { status: 200, json: {} };
    },
  }),
];
