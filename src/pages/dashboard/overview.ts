import { formatTimestamp } from '../../clock/format.js';
import type { OpenContext } from '../../http/route.js';
import { scopeKey } from '../../lib/scope-key.js';
import { Invoices } from '../../resources/invoices/records.js';
import { PaymentLinks } from '../../resources/payment-links/records.js';
import { Payments } from '../../resources/common/payment-records.js';
import { Recurring } from '../../resources/recurring/records.js';
import { Refunds } from '../../resources/refunds/records.js';
import { Events } from '../../webhooks/records.js';
import { html } from '../html.js';
import { cell, shell } from './layout.js';
import { href, param, scopeFromQuery } from './scope.js';

/** The overview: where to send requests, with which keys and secret, where webhooks go, the clock, and how much there is. */
export function overview(ctx: OpenContext) {
  const { app } = ctx;
  const scope = scopeFromQuery(ctx);
  const key = scopeKey(scope.source.slug, scope.mode);
  const counts: [string, number, string][] = [
    ['Payments', app.store.countIndex(Payments, 'scope', key), '/payments'],
    ['Refunds', app.store.countIndex(Refunds, 'scope', key), '/payments'],
    ['Schedules', app.store.countIndex(Recurring, 'scope', key), '/schedules'],
    ['Invoices', app.store.countIndex(Invoices, 'scope', key), '/invoices'],
    ['Payment links', app.store.countIndex(PaymentLinks, 'scope', key), '/payment-links'],
    ['Events', app.store.countIndex(Events, 'scope', key), '/events'],
    ['Requests (journal)', app.requestJournal.list(scope.source.slug, scope.mode, { limit: 1 }).total, '/requests'],
  ];
  const webhookUrl = app.webhooks.endpointFor(scope.source);
  const reset = param(ctx, 'reset');
  const body = html`<h1>Overview</h1>
    ${reset ? html`<p class="alert ok" role="status" data-testid="reset-done">Reset: ${reset} records removed from ${scope.source.slug} ${scope.mode}.</p>` : ''}
    <h2>Connect</h2>
    <dl data-testid="connect">
      <dt>Base URL</dt><dd><code>${app.baseUrl()}</code></dd>
      <dt>Test key</dt><dd><code data-testid="test-key">${scope.source.test_key}</code></dd>
      <dt>Live key</dt><dd><code>${scope.source.live_key}</code></dd>
      <dt>Webhook secret</dt><dd><code data-testid="webhook-secret">${scope.source.webhook_secret}</code></dd>
      <dt>Webhook URL</dt><dd>${webhookUrl ? html`<code>${webhookUrl}</code>` : html`<span class="muted">none: set one with <code>--webhook-url URL</code> or <code>webhook_url</code> in payemu.config.json</span>`}</dd>
    </dl>
    <h2>Clock</h2>
    <dl data-testid="clock">
      <dt>Now</dt><dd><code>${formatTimestamp(app.clock.now())}</code></dd>
      <dt>Offset</dt><dd>${Math.round(app.clock.offsetMs() / 1000)} s</dd>
      <dt>Frozen</dt><dd>${app.clock.frozen() ? 'yes' : 'no'}</dd>
    </dl>
    <p><a href="${href(scope, '/clock')}">Advance the clock</a></p>
    <h2>${scope.source.name}, ${scope.mode} mode</h2>
    <dl data-testid="counts">${counts.map(([label, n, path]) => html`<dt><a href="${href(scope, path)}">${label}</a></dt><dd>${cell(n)}</dd>`)}</dl>`;
  return shell(app, scope, 'Overview', '', body);
}
