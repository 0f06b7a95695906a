import { Unprocessable } from '../../http/errors.js';
import { webhookDestination } from '../../schemas/control.js';
import { destinationProblem, strictDestinationProblem, WebhookDestinations } from '../../webhooks/destination.js';
import { type Input, operation } from '../operation.js';
import { destinationView } from './webhook-read.js';

const body = {
  type: 'object',
  required: ['url'],
  properties: { url: { type: 'string', maxLength: 2048, description: 'An absolute http:// or https:// URL, without credentials or a fragment.' } },
  additionalProperties: false,
} as const;

/**
 * `PUT /_payemu/webhook` (docs/control-plane.md): the key's Source's webhooks go to this URL, in
 * both modes, whatever the config's `webhook_url` and `--webhook-url` say. Stored, so it survives
 * a restart; a reset leaves it (a setting, as webhook chaos is); `DELETE /_payemu/webhook` ends it.
 */
export const webhookSet = operation({
  method: 'PUT',
  path: '/_payemu/webhook',
  summary: "Send the key's Source's webhooks to this URL (both modes), over the config's webhook_url and --webhook-url",
  body,
  result: webhookDestination,
  errors: [422],
  run: (app, scope, { body }: Input<{ url: string }>) => {
    const problem = destinationProblem(body.url) ?? (app.webhooks.strictUrls ? strictDestinationProblem(body.url) : undefined);
    if (problem) throw Unprocessable.field('url', problem);
    const slug = scope.source.slug;
    app.store.transaction((tx) => tx.put(WebhookDestinations, { id: slug, source: slug, url: body.url }));
    const view = destinationView(app, scope);
    // The terminal UI's header shows where each Source's webhooks go.
    app.bus.emit('webhook.destination', { source: slug, url: view.url });
    return view;
  },
  client: { name: 'setWebhook', args: (url: string) => ({ body: { url } }) },
  library: {
    at: 'webhook.set',
    args: (url: string, options?: { source?: string }) => ({ scope: options, input: { body: { url } } }),
    error: (error) => {
      const [field, [message] = []] = Object.entries((error.meta?.errors ?? {}) as Record<string, string[]>)[0] ?? [];
      throw new RangeError(`webhook.set: ${field}: ${message}`);
    },
  },
});
