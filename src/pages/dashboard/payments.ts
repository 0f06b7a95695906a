import type { OpenContext } from '../../http/route.js';
import { PAYMENT_STATUSES, Payments } from '../../resources/common/payment-records.js';
import { html } from '../html.js';
import { bound, money, pageOf, when } from './format.js';
import { badge } from './badges.js';
import { cell, num, shell, table } from './layout.js';
import { paymentHref } from './links.js';
import { href, newestFirst, param, scopeFromQuery, scopeFields } from './scope.js';

/** Payments of the Source and mode, newest first, filtered by status, reference (part of it) and creation date, 25 a page. */
export function paymentsPage(ctx: OpenContext) {
  const { app } = ctx;
  const scope = scopeFromQuery(ctx);
  const filter = { status: param(ctx, 'status'), reference: param(ctx, 'reference'), from: param(ctx, 'from'), to: param(ctx, 'to') };
  const from = bound(filter.from, false);
  const to = bound(filter.to, true);
  const all = newestFirst(app, scope, Payments).filter(
    (p) =>
      (!filter.status || p.status === filter.status) &&
      (!filter.reference || p.reference.includes(filter.reference)) &&
      (from === undefined || p.created_at >= from) &&
      (to === undefined || p.created_at <= to),
  );
  const { items, page, pages } = pageOf(all, param(ctx, 'page'));
  const rows = items.map(
    (
      p,
    ) => html`<tr><td><a class="id" href="${paymentHref(scope, p.id)}">${p.reference}</a></td><td><a class="id" href="${paymentHref(scope, p.id)}">${p.id}</a></td><td class="num">${money(p.amount, p.currency)}</td>
      <td data-testid="status">${badge(p.status)}</td><td>${cell(p.failure_code)}</td><td>${when(p.created_at)}</td></tr>`,
  );
  const body = html`<h1>Payments</h1>
    <form class="filters" method="get" action="${href(scope, '/payments').split('?')[0]}" aria-label="Filter payments">
      ${scopeFields(scope)}
      <label>Status <select name="status"><option value="">any</option>${PAYMENT_STATUSES.map((s) => html`<option${s === filter.status ? html` selected` : ''}>${s}</option>`)}</select></label>
      <label>Reference <input name="reference" value="${filter.reference}"></label>
      <label>From <input type="date" name="from" value="${filter.from}"></label>
      <label>To <input type="date" name="to" value="${filter.to}"></label>
      <button type="submit">Filter</button>
    </form>
    <p class="muted" data-testid="total">${all.length} payment${all.length === 1 ? '' : 's'}</p>
    ${table('payments', 'Payments', ['Reference', 'Id', num('Amount'), 'Status', 'Failure', 'Created'], rows, 'No payments match.')}
    ${
      pages > 1
        ? html`<p class="pager">${page > 1 ? html`<a href="${href(scope, '/payments', { ...filter, page: page - 1 })}" rel="prev">Newer</a>` : ''}
      <span>Page ${page} of ${pages}</span>${page < pages ? html`<a href="${href(scope, '/payments', { ...filter, page: page + 1 })}" rel="next">Older</a>` : ''}</p>`
        : ''
    }`;
  return shell(app, scope, 'Payments', '/payments', body);
}
