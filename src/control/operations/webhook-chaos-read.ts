import { scopeKey } from '../../lib/scope-key.js';
import { webhookChaos } from '../../schemas/control.js';
import { WebhookChaos, type WebhookChaosSettings } from '../../webhooks/chaos.js';
import { bySourceAndMode, operation } from '../operation.js';

/** `GET /_payemu/webhook-chaos` (docs/chaos.md): the key's Source and mode's webhook chaos, `{}` when off. */
export const webhookChaosRead = operation({
  method: 'GET',
  path: '/_payemu/webhook-chaos',
  summary: "Read the webhook chaos of the key's Source and mode (`{}` when off)",
  result: webhookChaos,
  run: (app, scope): WebhookChaosSettings => app.store.get(WebhookChaos, scopeKey(scope.source.slug, scope.mode))?.settings ?? {},
  client: { name: 'webhookChaos' },
  // A copy: the store keeps the settings, which the caller may change in place.
  library: { at: 'webhookChaos.get', args: bySourceAndMode, result: (settings) => ({ ...settings }) },
});
