import type { OpenContext } from '../../http/route.js';
import { Payments, paymentDescription, refundedOf, updatedAt } from '../../resources/common/payment-records.js';
import { Refunds } from '../../resources/refunds/records.js';
import { attemptsOf } from '../../webhooks/records.js';
import { html, pagePath } from '../html.js';
import { badge, httpBadge } from './badges.js';
import { ATTEMPT_COLUMNS, attemptRows } from './event.js';
import { money, when } from './format.js';
import { cell, num, shell, table } from './layout.js';
import { invoiceHref, scheduleHref } from './links.js';
import { eventsFor, recordNotFound, scopedRecord } from './record.js';
import { href, scopeFromQuery } from './scope.js';
import { paymentTimeline } from './timeline.js';

/**
 * One payment: its fields, its refunds, the events raised for its reference with each delivery
 * attempt, and the journal's requests that touched it (its id or reference in the path, or its
 * reference in the request body).
 */
export function paymentPage(ctx: OpenContext) {
  const { app } = ctx;
  const scope = scopeFromQuery(ctx);
  const payment = scopedRecord(app, scope, Payments, ctx.params.id!);
  if (!payment) return recordNotFound(app, scope, 'payment', '/payments', ctx.params.id!);
  const refunds = app.store.find(Refunds, 'payment', payment.id);
  const events = eventsFor(app, scope, payment.reference);
  const segments = new Set([payment.id, encodeURIComponent(payment.reference)]);
  const requests = app.requestJournal
    .list(scope.source.slug, scope.mode, { limit: 1000 })
    .requests.filter(
      (r) =>
        r.path.split('/').some((s) => segments.has(s)) ||
        (r.request_body !== null && JSON.stringify(r.request_body ?? '').includes(JSON.stringify(payment.reference))),
    );
  const body = html`<div class="heading"><h1>Payment ${payment.reference}</h1>${badge(payment.status)}</div>
    <div class="grid">
    <section aria-labelledby="details"><h2 id="details">Details</h2><dl data-testid="payment">
      <dt>Id</dt><dd><code>${payment.id}</code></dd><dt>Status</dt><dd data-testid="status">${badge(payment.status)}</dd>
      <dt>Amount</dt><dd>${money(payment.amount, payment.currency)}</dd><dt>Refunded</dt><dd>${money(refundedOf(payment), payment.currency)}</dd>
      <dt>Description</dt><dd>${cell(paymentDescription(payment))}</dd><dt>Customer</dt><dd>${cell(payment.customer_email)}</dd>
      <dt>Card</dt><dd>${payment.card_last ? `${payment.card_brand ?? 'card'} ····${payment.card_last}` : '—'}</dd>
      <dt>Failure</dt><dd>${payment.failure_code ? `${payment.failure_code}: ${payment.failure_message ?? ''}` : '—'}</dd>
      ${payment.recurring_reference ? html`<dt>Schedule</dt><dd><a class="id" href="${scheduleHref(scope, payment.recurring_reference)}">${payment.recurring_reference}</a></dd>` : ''}
      ${payment.invoice_id ? html`<dt>Invoice</dt><dd><a class="id" href="${invoiceHref(scope, payment.invoice_id)}">${payment.invoice_id}</a></dd>` : ''}
      ${payment.payment_link_id ? html`<dt>Payment link</dt><dd><a class="id" href="${pagePath(scope, `/pay/${encodeURIComponent(payment.payment_link_id)}`)}">${payment.payment_link_id}</a></dd>` : ''}
      <dt>Created</dt><dd>${when(payment.created_at)}</dd><dt>Updated</dt><dd>${when(updatedAt(payment))}</dd>
    </dl></section>
    <section aria-labelledby="life"><h2 id="life">Timeline</h2>${paymentTimeline(scope, payment, refunds, [...events].reverse())}</section>
    </div>
    <h2>Refunds</h2>
    ${table(
      'refunds',
      'Refunds',
      ['Id', num('Amount'), 'Reason', 'Created'],
      refunds.map(
        (r) =>
          html`<tr><td class="id">${r.id}</td><td class="num">${money(r.amount, payment.currency)}</td><td>${cell(r.reason)}</td><td>${when(r.created_at)}</td></tr>`,
      ),
      'No refunds.',
    )}
    <h2>Events and deliveries</h2>
    ${
      events.length === 0
        ? html`<p class="muted" data-testid="events-empty">No events.</p>`
        : events.map(
            (
              e,
            ) => html`<h3 class="what"><a href="${href(scope, `/events/${encodeURIComponent(e.id)}`)}">${e.event}</a> ${badge(e.delivery_status)} <time class="muted">${when(e.created_at)}</time></h3>
            ${table('attempts', `Delivery attempts of ${e.event} ${e.id}`, ATTEMPT_COLUMNS, attemptRows(attemptsOf(e)), 'No delivery attempts.')}`,
          )
    }
    <h2>Requests</h2>
    ${table(
      'requests',
      'Requests that touched this payment',
      ['When', 'Method', 'Path', 'Status'],
      requests.map(
        (r) => html`<tr><td>${r.at.slice(0, 19).replace('T', ' ')}</td><td>${r.method}</td><td><code>${r.path}</code></td><td>${httpBadge(r.status)}</td></tr>`,
      ),
      'No requests in the journal touched this payment.',
    )}`;
  return shell(app, scope, `Payment ${payment.reference}`, '/payments', body);
}
