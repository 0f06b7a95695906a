import { Unprocessable } from '../../http/errors.js';
import { scopeKey } from '../../lib/scope-key.js';
import { webhookChaos } from '../../schemas/control.js';
import { checkChaos, WebhookChaos, type WebhookChaosSettings } from '../../webhooks/chaos.js';
import { type Input, operation, type ScopeOption } from '../operation.js';

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

/**
 * `PUT /_payemu/webhook-chaos` (docs/control-plane.md, docs/chaos.md): replaces the key's Source
 * and mode's webhook chaos. Stored, so it survives a restart; a reset leaves it (it is how
 * payemu behaves, not data).
 */
export const webhookChaosSet = operation({
  method: 'PUT',
  path: '/_payemu/webhook-chaos',
  summary: "Replace the webhook chaos of the key's Source and mode: duplicates, delays, stale timestamps, bad signatures",
  body,
  result: webhookChaos,
  errors: [422],
  run: (app, scope, { body }: Input<WebhookChaosSettings>): WebhookChaosSettings => {
    // The schema has checked the types; the duration and its bound are checked here.
    const checked = checkChaos(body);
    if ('field' in checked) throw Unprocessable.field(checked.field, checked.message);
    const id = scopeKey(scope.source.slug, scope.mode);
    app.store.transaction((tx) => tx.put(WebhookChaos, { id, source: scope.source.slug, mode: scope.mode, settings: checked.settings }));
    return checked.settings;
  },
  client: { name: 'setWebhookChaos', args: (settings: WebhookChaosSettings) => ({ body: settings }) },
  library: {
    at: 'webhookChaos.set',
    args: (settings: WebhookChaosSettings, scope?: ScopeOption) => ({ scope, input: { body: settings } }),
    result: (settings) => ({ ...settings }),
    error: (error) => {
      const [field, [message] = []] = Object.entries((error.meta?.errors ?? {}) as Record<string, string[]>)[0] ?? [];
      throw new RangeError(`webhookChaos.set: ${field}: ${message}`);
    },
  },
});
