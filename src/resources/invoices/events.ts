import type { EventName } from '../../bus/events.js';
import { formatDate, formatTimestamp } from '../../clock/format.js';
import { minorToNumber } from '../../lib/money.js';
import type { Transaction } from '../../store/store.js';
import type { EventData } from '../../types.js';
import { raiseEvent } from '../../webhooks/raise.js';
import type { InvoiceRecord } from './records.js';
import { invoiceTotals } from './totals.js';

/**
 * `data` of the `invoice.*` webhooks (docs/webhooks.md). `reference` is the invoice id: the
 * reference its payment gets, so every event payload names a reference to look it up by.
 */
export function invoiceEventData(invoice: InvoiceRecord, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const totals = invoiceTotals(invoice.items, invoice.discount, invoice.tax_rate);
  // What every `invoice.*` event carries (`invoice.created` is just that); `extra` is what an event adds.
  const data: EventData<'invoice.created'> = {
    invoice_id: invoice.id,
    reference: invoice.id,
    number: invoice.number,
    status: invoice.status,
    customer_email: invoice.customer_email,
    customer_name: invoice.customer_name,
    currency: invoice.currency,
    subtotal: minorToNumber(totals.subtotal),
    discount: minorToNumber(totals.discount),
    tax_amount: minorToNumber(totals.tax_amount),
    total: minorToNumber(totals.total),
    due_date: formatDate(invoice.due_date),
    metadata: invoice.metadata,
    ...(invoice.sent_at !== null ? { sent_at: formatTimestamp(invoice.sent_at) } : {}),
    ...(invoice.paid_at !== null ? { paid_at: formatTimestamp(invoice.paid_at) } : {}),
  };
  return { ...data, ...extra };
}

export function emitInvoiceEvent(tx: Transaction, name: EventName, invoice: InvoiceRecord, at: number, extra: Record<string, unknown> = {}): void {
  raiseEvent(tx, { name, source: invoice.source, mode: invoice.mode, data: invoiceEventData(invoice, extra) }, at);
}
