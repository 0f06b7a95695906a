import type { OpenContext } from '../../http/route.js';
import { Invoices } from '../../resources/invoices/records.js';
import { invoiceTotals } from '../../resources/invoices/totals.js';
import { html } from '../html.js';
import { day, money, when } from './format.js';
import { badge } from './badges.js';
import { num, shell, table } from './layout.js';
import { invoiceHref, paymentHref } from './links.js';
import { newestFirst, scopeFromQuery } from './scope.js';

/** Invoices, newest first, with their totals and due dates; each links to its page. */
export function invoicesPage(ctx: OpenContext) {
  const scope = scopeFromQuery(ctx);
  const rows = newestFirst(ctx.app, scope, Invoices).map((i) => {
    const total = invoiceTotals(i.items, i.discount, i.tax_rate).total;
    return html`<tr><td><a class="id" href="${invoiceHref(scope, i.id)}">${i.number}</a><span class="sub id">${i.id}</span></td><td>${i.customer_name}<span class="sub">${i.customer_email}</span></td>
        <td class="num">${money(total, i.currency)}</td><td data-testid="status">${badge(i.status)}</td><td data-testid="due">${day(i.due_date)}</td><td>${when(i.paid_at)}</td>
        <td>${i.payment_id ? html`<a class="id" href="${paymentHref(scope, i.payment_id)}">${i.payment_id}</a>` : '—'}</td><td>${when(i.created_at)}</td></tr>`;
  });
  const body = html`<h1>Invoices</h1>${table('invoices', 'Invoices', ['Number', 'Customer', num('Total'), 'Status', 'Due', 'Paid', 'Payment', 'Created'], rows, 'No invoices.')}`;
  return shell(ctx.app, scope, 'Invoices', '/invoices', body);
}
