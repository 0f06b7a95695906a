import type { OpenContext } from '../../http/route.js';
import { Invoices } from '../../resources/invoices/records.js';
import { invoiceTotals } from '../../resources/invoices/totals.js';
import { html } from '../html.js';
import { badge } from './badges.js';
import { day, money, when } from './format.js';
import { num, shell, table } from './layout.js';
import { hostedInvoiceHref, paymentHref } from './links.js';
import { recordEventsTable } from './events.js';
import { eventsFor, recordNotFound, scopedRecord } from './record.js';
import { scopeFromQuery } from './scope.js';

/** One invoice: its customer, totals and dates, its items, the payment that paid it, the events raised for it, and its hosted page. */
export function invoicePage(ctx: OpenContext) {
  const { app } = ctx;
  const scope = scopeFromQuery(ctx);
  const invoice = scopedRecord(app, scope, Invoices, ctx.params.id!);
  if (!invoice) return recordNotFound(app, scope, 'invoice', '/invoices', ctx.params.id!);
  const totals = invoiceTotals(invoice.items, invoice.discount, invoice.tax_rate);
  const amount = (minor: number) => money(minor, invoice.currency);
  const events = eventsFor(app, scope, invoice.id);
  const body = html`<div class="heading"><h1>Invoice ${invoice.number}</h1>${badge(invoice.status)}</div>
    <dl data-testid="invoice">
      <dt>Id</dt><dd><code>${invoice.id}</code></dd><dt>Status</dt><dd data-testid="status">${badge(invoice.status)}</dd>
      <dt>Customer</dt><dd>${invoice.customer_name} <span class="muted">${invoice.customer_email}</span></dd>
      <dt>Total</dt><dd>${amount(totals.total)} <span class="muted">(subtotal ${amount(totals.subtotal)}, discount ${amount(totals.discount)}, tax ${amount(totals.tax_amount)})</span></dd>
      <dt>Due</dt><dd>${day(invoice.due_date)}</dd><dt>Sent</dt><dd>${when(invoice.sent_at)}</dd><dt>Paid</dt><dd>${when(invoice.paid_at)}</dd>
      <dt>Payment</dt><dd>${invoice.payment_id ? html`<a class="id" href="${paymentHref(scope, invoice.payment_id)}">${invoice.payment_id}</a>` : '—'}</dd>
      <dt>Hosted page</dt><dd><a href="${hostedInvoiceHref(scope, invoice.id)}">${hostedInvoiceHref(scope, invoice.id)}</a></dd>
      <dt>Created</dt><dd>${when(invoice.created_at)}</dd>
    </dl>
    <h2>Items</h2>
    ${table(
      'items',
      'Items',
      ['Description', num('Quantity'), num('Unit price'), num('Amount')],
      invoice.items.map(
        (i) =>
          html`<tr><td class="wrap">${i.description}</td><td class="num">${i.quantity}</td><td class="num">${amount(i.unit_price)}</td><td class="num">${amount(i.quantity * i.unit_price)}</td></tr>`,
      ),
      'No items.',
    )}
    <h2>Events</h2>
    ${recordEventsTable(scope, 'invoice-events', 'Events of this invoice', events)}`;
  return shell(app, scope, `Invoice ${invoice.number}`, '/invoices', body);
}
