import { formatDate } from '../clock/format.js';
import type { Reply } from '../http/envelope.js';
import type { OpenContext } from '../http/route.js';
import { formatMinor } from '../lib/money.js';
import { payInvoice } from '../resources/invoices/pay.js';
import { Invoices, type InvoiceRecord } from '../resources/invoices/records.js';
import { invoiceTotals } from '../resources/invoices/totals.js';
import { cardFields, redirect, submitCard, testCardHelp, type CardFormState } from './card-form.js';
import { html, page, pagePath } from './html.js';
import { recordPages } from './record-pages.js';

const pages = recordPages<InvoiceRecord>({
  find: (ctx) => ctx.app.store.get(Invoices, ctx.params.id!),
  notFound: { heading: 'Invoice not found', text: 'There is no invoice at this address.' },
});

/** The hosted invoice at its `payment_url`: the items and totals, and a card form while it is payable. */
export const invoicePages = [
  pages.get('/invoices/:id', (ctx, invoice) => show(ctx, invoice, {})),
  pages.post('/invoices/:id/pay', pay),
  pages.post('/invoices/:id/3ds', pay),
];

function show(ctx: OpenContext, invoice: InvoiceRecord, state: CardFormState, status = 200): Reply {
  const source = ctx.app.config().sources.find((s) => s.slug === invoice.source);
  const totals = invoiceTotals(invoice.items, invoice.discount, invoice.tax_rate);
  const money = (minor: number) => `${formatMinor(minor)} ${invoice.currency}`;
  const payable = invoice.status === 'sent' || invoice.status === 'overdue';
  const body = html`
    <h1>Invoice ${invoice.number}</h1>
    <p class="merchant">From ${source?.name ?? invoice.source} to ${invoice.customer_name} &lt;${invoice.customer_email}&gt;</p>
    <p class="muted">Due ${formatDate(invoice.due_date)} · <span data-testid="status">${invoice.status}</span></p>
    <table data-testid="items">
      ${invoice.items.map((item) => html`<tr><td>${item.description} × ${item.quantity}</td><td style="text-align:right">${money(item.quantity * item.unit_price)}</td></tr>`)}
      <tr><td>Subtotal</td><td style="text-align:right">${money(totals.subtotal)}</td></tr>
      ${totals.discount > 0 ? html`<tr><td>Discount</td><td style="text-align:right">−${money(totals.discount)}</td></tr>` : ''}
      ${totals.rate > 0 ? html`<tr><td>Tax (${totals.rate} %)</td><td style="text-align:right">${money(totals.tax_amount)}</td></tr>` : ''}
      <tr><td><strong>Total</strong></td><td style="text-align:right" data-testid="total"><strong>${money(totals.total)}</strong></td></tr>
    </table>
    ${invoice.notes ? html`<p class="muted">${invoice.notes}</p>` : ''}
    ${invoice.status === 'paid' ? html`<p class="alert ok" role="status">Paid. Thank you.</p>` : ''}
    ${invoice.status === 'draft' ? html`<p class="alert">This invoice has not been sent yet.</p>` : ''}
    ${state.declined ? html`<div class="alert" role="alert" data-testid="decline">Payment declined: ${state.declined} Try another card.</div>` : ''}
    ${
      payable
        ? html`<form method="post" action="${pagePath(ctx.app, `/invoices/${invoice.id}/pay`)}" novalidate>${cardFields(state)}<button type="submit">Pay ${money(totals.total)}</button></form>
        ${invoice.mode === 'test' ? testCardHelp() : ''}`
        : ''
    }`;
  return { status, html: page(`Invoice ${invoice.number}`, body, invoice.mode) };
}

function pay(ctx: OpenContext, invoice: InvoiceRecord): Promise<Reply> {
  return submitCard(ctx, {
    mode: invoice.mode,
    form: (state, status) => show(ctx, invoice, state, status),
    challenge: {
      action: pagePath(ctx.app, `/invoices/${invoice.id}/3ds`),
      question: html`Your bank asks you to confirm the payment of invoice ${invoice.number}.`,
    },
    attempt: (tx, card) => payInvoice(tx, invoice.id, card, ctx.now),
    refused: { title: 'Invoice', heading: 'Payment not possible' },
    declined: (result) => (result.outcome.outcome === 'decline' ? result.payment.failure_message : undefined),
    done: () => redirect(pagePath(ctx.app, `/invoices/${invoice.id}`)),
  });
}
