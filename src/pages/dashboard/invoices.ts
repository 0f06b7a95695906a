import type { OpenContext } from '../../http/route.js';
import { Invoices } from '../../resources/invoices/records.js';
import { invoiceTotals } from '../../resources/invoices/totals.js';
import { html } from '../html.js';
import { day, money, when } from './format.js';
import { shell, table } from './layout.js';
import { newestFirst, scopeFromQuery } from './scope.js';

/** Invoices, newest first, with their totals and due dates; each links to its hosted page. */
export function invoicesPage(ctx: OpenContext) {
  const scope = scopeFromQuery(ctx);
  const rows = newestFirst(ctx.app, scope, Invoices).map((i) => {
    const total = invoiceTotals(i.items, i.discount, i.tax_rate).total;
    return html`<tr><td><a href="/invoices/${encodeURIComponent(i.id)}">${i.number}</a></td><td>${i.customer_name} <span class="muted">${i.customer_email}</span></td>
        <td>${money(total, i.currency)}</td><td data-testid="status">${i.status}</td><td data-testid="due">${day(i.due_date)}</td><td>${when(i.paid_at)}</td><td>${when(i.created_at)}</td></tr>`;
  });
  const body = html`<h1>Invoices</h1>${table('invoices', ['Number', 'Customer', 'Total', 'Status', 'Due', 'Paid', 'Created'], rows, 'No invoices.')}`;
  return shell(ctx.app, scope, 'Invoices', '/invoices', body);
}
