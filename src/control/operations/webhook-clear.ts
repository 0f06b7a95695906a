import { webhookDestination } from '../../schemas/control.js';
import { WebhookDestinations } from '../../webhooks/destination.js';
import { operation } from '../operation.js';
import { destinationView } from './webhook-read.js';

/** `DELETE /_payemu/webhook` (docs/control-plane.md): the key's Source's webhooks go where the config says again. */
export const webhookClear = operation({
  method: 'DELETE',
  path: '/_payemu/webhook',
  summary: "Send the key's Source's webhooks where the config says again (its webhook_url, else --webhook-url)",
  result: webhookDestination,
  run: (app, scope) => {
    const slug = scope.source.slug;
    if (app.store.get(WebhookDestinations, slug)) app.store.transaction((tx) => tx.delete(WebhookDestinations, slug));
    const view = destinationView(app, scope);
    // The terminal UI's header shows where each Source's webhooks go.
    app.bus.emit('webhook.destination', { source: slug, url: view.url });
    return view;
  },
  client: { name: 'clearWebhook' },
  library: { at: 'webhook.clear', args: (options?: { source?: string }) => ({ scope: options }) },
});
