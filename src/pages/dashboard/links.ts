import type { App } from '../../app.js';
import { Payments } from '../../resources/common/payment-records.js';
import { referenceKey } from '../../resources/common/references.js';
import { Invoices } from '../../resources/invoices/records.js';
import { PaymentLinks } from '../../resources/payment-links/records.js';
import { Recurring, recurringId } from '../../resources/recurring/records.js';
import { html, type Raw, pagePath } from '../html.js';
import { type DashScope, href } from './scope.js';

/** A payment's dashboard page. */
export const paymentHref = (scope: DashScope, id: string) => href(scope, `/payments/${encodeURIComponent(id)}`);

/** A schedule's dashboard page (by its reference, unique in a Source and mode). */
export const scheduleHref = (scope: DashScope, reference: string) => href(scope, `/schedules/${encodeURIComponent(reference)}`);

/** An invoice's dashboard page. */
export const invoiceHref = (scope: DashScope, id: string) => href(scope, `/invoices/${encodeURIComponent(id)}`);

/** An invoice's hosted page, the one its customer gets. */
export const hostedInvoiceHref = (scope: DashScope, id: string) => pagePath(scope, `/invoices/${encodeURIComponent(id)}`);

/**
 * Where a reference leads: an event names a payment's reference, a schedule's, or an invoice's
 * id (docs/webhooks.md), looked up in that order within the Source and mode.
 */
export function referenceHref(app: App, scope: DashScope, reference: string): string | undefined {
  const payment = app.store.find(Payments, 'reference', referenceKey(scope.mode, reference)).find((p) => p.source === scope.source.slug);
  if (payment) return paymentHref(scope, payment.id);
  if (app.store.get(Recurring, recurringId(scope.source.slug, scope.mode, reference))) return scheduleHref(scope, reference);
  const invoice = app.store.get(Invoices, reference);
  if (invoice && invoice.source === scope.source.slug && invoice.mode === scope.mode) return invoiceHref(scope, invoice.id);
  return undefined;
}

/** A reference as a link to its page, or as text when nothing of this Source and mode has it (a dash for none). */
export function referenceLink(app: App, scope: DashScope, reference: string | null | undefined): Raw {
  if (!reference) return html`<span class="muted">—</span>`;
  const to = referenceHref(app, scope, reference);
  return to ? html`<a class="id" href="${to}">${reference}</a>` : html`<span class="id">${reference}</span>`;
}

/**
 * The page of a record the clock's due work ran on (a payment, a schedule, an invoice, a payment
 * link), by its id, when it is of this Source and mode; the id as text otherwise.
 */
export function recordLink(app: App, scope: DashScope, id: string): Raw {
  const to = recordHref(app, scope, id);
  return to ? html`<a class="id" href="${to}">${id}</a>` : html`<span class="id">${id}</span>`;
}

function recordHref(app: App, scope: DashScope, id: string): string | undefined {
  const mine = (r: { source: string; mode: string } | undefined) => r !== undefined && r.source === scope.source.slug && r.mode === scope.mode;
  if (mine(app.store.get(Payments, id))) return paymentHref(scope, id);
  const schedule = app.store.get(Recurring, id);
  if (schedule && mine(schedule)) return scheduleHref(scope, schedule.reference);
  if (mine(app.store.get(Invoices, id))) return invoiceHref(scope, id);
  if (mine(app.store.get(PaymentLinks, id))) return pagePath(scope, `/pay/${encodeURIComponent(id)}`);
  return undefined;
}
