import { scopeKey } from '../../lib/scope-key.js';
import { webhookChaos } from '../../schemas/control.js';
import { WebhookChaos } from '../../webhooks/chaos.js';
import { bySourceAndMode, operation } from '../operation.js';

/** `DELETE /_payemu/webhook-chaos`: turns the key's Source and mode's webhook chaos off (answers `{}`). */
export const webhookChaosClear = operation({
  method: 'DELETE',
  path: '/_payemu/webhook-chaos',
  summary: "Turn the webhook chaos of the key's Source and mode off",
  result: webhookChaos,
  run: (app, scope) => {
    const id = scopeKey(scope.source.slug, scope.mode);
    if (app.store.get(WebhookChaos, id)) app.store.transaction((tx) => tx.delete(WebhookChaos, id));
    return {};
  },
  client: { name: 'clearWebhookChaos' },
  library: { at: 'webhookChaos.clear', args: bySourceAndMode, result: () => undefined },
});
