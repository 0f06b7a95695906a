import type { OpenContext } from '../../http/route.js';
import { namespacedKey } from '../../lib/namespace-name.js';
import { scopeKey } from '../../lib/scope-key.js';
import { Invoices } from '../../resources/invoices/records.js';
import { PaymentLinks } from '../../resources/payment-links/records.js';
import { PAYMENT_STATUSES, Payments } from '../../resources/common/payment-records.js';
import { Recurring } from '../../resources/recurring/records.js';
import { Refunds } from '../../resources/refunds/records.js';
import { Events, attemptState, attemptsOf } from '../../webhooks/records.js';
import { html } from '../html.js';
import { type Series, stackedChart } from './chart.js';
import { clockFacts } from './clock.js';
import { shell } from './layout.js';
import { href, newestFirst, param, scopeFromQuery } from './scope.js';

/** The payment statuses in the chart, each with its colour (the badges' tones; the two refunded ones apart). */
const PAYMENT_SERIES: readonly Series[] = PAYMENT_STATUSES.map((status) => ({
  key: status,
  label: status,
  fill: {
    PAID: 'fill-ok',
    FAILED: 'fill-bad',
    AUTHORIZED: 'fill-info',
    VOIDED: 'fill-neutral',
    PARTIALLY_REFUNDED: 'fill-refund-light',
    REFUNDED: 'fill-refund',
    EXPIRED: 'fill-neutral-light',
  }[status],
}));

const ATTEMPT_SERIES: readonly Series[] = [
  { key: 'succeeded', label: 'succeeded', fill: 'fill-ok' },
  { key: 'failed', label: 'failed', fill: 'fill-bad' },
  { key: 'in_progress', label: 'in progress', fill: 'fill-warn' },
  { key: 'interrupted', label: 'interrupted', fill: 'fill-neutral' },
];

/**
 * The overview: how much there is and how it went over virtual time, where to send requests with
 * which keys (a named namespace's end in `~NAME`: the one base URL serves every namespace) and
 * secret, where webhooks go, the clock.
 */
export function overview(ctx: OpenContext) {
  const { app } = ctx;
  const scope = scopeFromQuery(ctx);
  const key = scopeKey(scope.source.slug, scope.mode);
  const payments = newestFirst(app, scope, Payments);
  const events = newestFirst(app, scope, Events);
  const counts: [string, number, string][] = [
    ['Payments', payments.length, '/payments'],
    ['Refunds', app.store.countIndex(Refunds, 'scope', key), '/payments'],
    ['Schedules', app.store.countIndex(Recurring, 'scope', key), '/schedules'],
    ['Invoices', app.store.countIndex(Invoices, 'scope', key), '/invoices'],
    ['Payment links', app.store.countIndex(PaymentLinks, 'scope', key), '/payment-links'],
    ['Events', events.length, '/events'],
    ['Requests (journal)', app.requestJournal.list(scope.source.slug, scope.mode, { limit: 1 }).total, '/requests'],
  ];
  const attempts = events.flatMap((e) => attemptsOf(e).map((a) => ({ at: a.at, key: attemptState(a) })));
  const now = app.clock.now();
  const webhookUrl = app.webhooks.endpointFor(scope.source);
  const reset = param(ctx, 'reset');
  const body = html`<h1>Overview</h1>
    ${reset ? html`<p class="alert ok" role="status" data-testid="reset-done">Reset: ${reset} records removed from ${scope.source.slug} ${scope.mode}.</p>` : ''}
    <h2 class="visually-hidden">${scope.source.name}, ${scope.mode} mode</h2>
    <dl class="tiles" data-testid="counts">${counts.map(([label, n, path]) => html`<div><dt><a href="${href(scope, path)}">${label}</a></dt><dd>${n}</dd></div>`)}</dl>
    <h2>Over virtual time</h2>
    <div class="grid charts">
      ${stackedChart(
        'payments-chart',
        'Payments by status',
        PAYMENT_SERIES,
        payments.map((p) => ({ at: p.created_at, key: p.status })),
        now,
        'No payments yet.',
      )}
      ${stackedChart('deliveries-chart', 'Webhook deliveries by outcome', ATTEMPT_SERIES, attempts, now, 'No delivery attempts yet.')}
    </div>
    <div class="grid">
      <section aria-labelledby="connect-h"><h2 id="connect-h">Connect</h2>
      <dl data-testid="connect">
        <dt>Base URL</dt><dd><code>${app.namespaces.root().baseUrl()}</code></dd>
        <dt>Test key</dt><dd><code data-testid="test-key">${namespacedKey(scope.source.test_key, scope.namespace)}</code></dd>
        <dt>Live key</dt><dd><code>${namespacedKey(scope.source.live_key, scope.namespace)}</code></dd>
        <dt>Webhook secret</dt><dd><code data-testid="webhook-secret">${scope.source.webhook_secret}</code></dd>
        <dt>Webhook URL</dt><dd>${webhookUrl ? html`<code>${webhookUrl}</code>` : html`<span class="muted">none: set one with <code>--webhook-url URL</code>, <code>webhook_url</code> in payemu.config.json, or <code>PUT /_payemu/webhook</code> with ${scope.namespace === undefined ? 'the' : 'this namespace’s'} key (<code>payemu webhook set URL</code>)</span>`}</dd>
      </dl></section>
      <section aria-labelledby="clock-h"><h2 id="clock-h">Clock</h2>${clockFacts(app)}
      <p><a href="${href(scope, '/clock')}">Advance the clock</a></p></section>
    </div>`;
  return shell(app, scope, 'Overview', '', body);
}
