import { formatDate } from '../clock/format.js';
import { readForm } from '../http/body.js';
import type { Reply } from '../http/envelope.js';
import { HttpError } from '../http/errors.js';
import type { OpenContext } from '../http/route.js';
import { formatMinor } from '../lib/money.js';
import { evaluateCard } from '../resources/common/test-cards.js';
import { payInvoice } from '../resources/invoices/pay.js';
import { Invoices, type InvoiceRecord } from '../resources/invoices/records.js';
import { invoiceTotals } from '../resources/invoices/totals.js';
import { cardFields, challengePage, readCardForm, redirect, testCardHelp, type CardFormState } from './card-form.js';
import { html, page, pagePath } from './html.js';
import { recordPages } from './record-pages.js';

const NOT_FOUND: Reply = { status: 404, html: page('Not found', html`<h1>Invoice not found</h1><p>There is no invoice at this address.</p>`) };

const pages = recordPages(withInvoice, NOT_FOUND);

/** The hosted invoice at its `payment_url`: the items and totals, and a card form while it is payable. */
export const invoicePages = [
  pages.get('/invoices/:id', (ctx, invoice) => show(ctx, invoice, {})),
  pages.post('/invoices/:id/pay', pay),
  pages.post('/invoices/:id/3ds', pay),
];

function withInvoice(ctx: OpenContext, render: (invoice: InvoiceRecord) => Reply | Promise<Reply>): Reply | Promise<Reply> {
  const invoice = ctx.app.store.get(Invoices, ctx.params.id!);
  if (!invoice) return NOT_FOUND;
  return render(invoice);
}

function show(ctx: OpenContext, invoice: InvoiceRecord, state: CardFormState & { declined?: string }, status = 200): Reply {
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

async function pay(ctx: OpenContext, invoice: InvoiceRecord): Promise<Reply> {
  const { values, problems, threeDs } = readCardForm(await readForm(ctx.req), ctx.now);
  if (Object.keys(problems).length > 0) return show(ctx, invoice, { values, problems }, 422);
  if (!threeDs && evaluateCard(values.card_number, invoice.mode).outcome === 'three_ds') {
    return challengePage(
      pagePath(ctx.app, `/invoices/${invoice.id}/3ds`),
      html`Your bank asks you to confirm the payment of invoice ${invoice.number}.`,
      values,
      invoice.mode,
    );
  }
  let result: ReturnType<typeof payInvoice>;
  try {
    result = ctx.app.store.transaction((tx) => payInvoice(tx, invoice.id, { cardNumber: values.card_number, threeDs }, ctx.now));
  } catch (error) {
    if (error instanceof HttpError)
      return { status: error.status, html: page('Invoice', html`<h1>Payment not possible</h1><p class="alert">${error.detail}</p>`, invoice.mode) };
    throw error;
  }
  if (result.outcome.outcome === 'decline')
    return show(ctx, result.invoice, { values: { ...values, card_number: '' }, declined: result.payment.failure_message }, 402);
  return redirect(pagePath(ctx.app, `/invoices/${invoice.id}`));
}
