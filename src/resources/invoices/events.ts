import { formatDate, formatTimestamp } from '../../clock/format.js';
import { minorToNumber } from '../../lib/money.js';
import { familyEmitter } from '../common/event-adds.js';
import type { InvoiceRecord } from './records.js';
import { invoiceTotals } from './totals.js';
import type { InvoiceEventDataMap } from './webhooks.js';

/**
 * `data` of the `invoice.*` webhooks (docs/webhooks.md). `reference` is the invoice id: the
 * reference its payment gets, so every event payload names a reference to look it up by.
 */
export function invoiceEventData(invoice: InvoiceRecord): InvoiceEventDataMap['invoice.created'] {
  const totals = invoiceTotals(invoice.items, invoice.discount, invoice.tax_rate);
  // What every `invoice.*` event carries (`invoice.created` is just that); an emitter's `adds` are what an event adds.
  return {
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
}

/** Raises an `invoice.*` event about an invoice at `at`, with what the event adds (typed by its schema). */
export const emitInvoiceEvent = familyEmitter<InvoiceEventDataMap, InvoiceRecord, InvoiceEventDataMap['invoice.created']>(invoiceEventData);
