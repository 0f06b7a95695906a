import type { App } from '../../app.js';
import type { Scope } from '../../http/auth.js';
import { webhookDestination } from '../../schemas/control.js';
import { WebhookDestinations } from '../../webhooks/destination.js';
import { operation } from '../operation.js';

/** Where the Source's webhooks go now and whether that was set at run time: the answer of the three webhook operations. */
export function destinationView(app: App, scope: Scope): { source: string; url: string | null; overridden: boolean } {
  const source = scope.source;
  return { source: source.slug, url: app.webhooks.endpointFor(source), overridden: app.store.get(WebhookDestinations, source.slug) !== undefined };
}

/** `GET /_payemu/webhook` (docs/control-plane.md): where the key's Source's webhooks go now. */
export const webhookRead = operation({
  method: 'GET',
  path: '/_payemu/webhook',
  summary: "Read where the key's Source's webhooks go, and whether that was set at run time",
  result: webhookDestination,
  run: (app, scope) => destinationView(app, scope),
  client: { name: 'webhook' },
  library: { at: 'webhook.get', args: (options?: { source?: string }) => ({ scope: options }) },
});
