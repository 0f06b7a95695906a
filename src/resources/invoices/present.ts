import { formatDate, formatOptionalTimestamp, formatTimestamp } from '../../clock/format.js';
import { onlyFields } from '../../http/document-query.js';
import { formatMinor } from '../../lib/money.js';
import type { InvoiceAttributes } from '../../schemas/invoices.js';
import type { InvoiceRecord } from './records.js';
import { invoiceTotals } from './totals.js';

export const invoicePageUrl = (base: string, invoice: InvoiceRecord) => `${base}/invoices/${invoice.id}`;

/** Type `invoices`: every amount a two-decimal string, rates numbers. */
export function invoiceAttributes(invoice: InvoiceRecord, base: string): InvoiceAttributes {
  const totals = invoiceTotals(invoice.items, invoice.discount, invoice.tax_rate);
  return {
    number: invoice.number,
    status: invoice.status,
    customer_name: invoice.customer_name,
    customer_email: invoice.customer_email,
    customer_address: invoice.customer_address,
    currency: invoice.currency,
    due_date: formatDate(invoice.due_date),
    notes: invoice.notes,
    terms: invoice.terms,
    apply_tax: invoice.apply_tax,
    metadata: invoice.metadata,
    items: invoice.items.map((item) => ({
      description: item.description,
      quantity: item.quantity,
      unit_price: formatMinor(item.unit_price),
      amount: formatMinor(item.quantity * item.unit_price),
    })),
    subtotal: formatMinor(totals.subtotal),
    discount: formatMinor(totals.discount),
    tax_rate: totals.rate,
    tax_amount: formatMinor(totals.tax_amount),
    total: formatMinor(totals.total),
    payment_url: invoicePageUrl(base, invoice),
    payment_id: invoice.payment_id === null ? null : Number(invoice.payment_id),
    sent_at: formatOptionalTimestamp(invoice.sent_at),
    paid_at: formatOptionalTimestamp(invoice.paid_at),
    created_at: formatTimestamp(invoice.created_at),
    updated_at: formatTimestamp(invoice.updated_at),
  };
}

export function presentInvoice(invoice: InvoiceRecord, base: string, fields?: readonly string[]) {
  const attributes = onlyFields(invoiceAttributes(invoice, base), fields);
  return { id: invoice.id, type: 'invoices', attributes, links: { self: `${base}/v1/invoices/${invoice.id}`, pay: invoicePageUrl(base, invoice) } };
}
