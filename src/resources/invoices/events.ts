import type { EventName } from '../../bus/events.js';
import { formatDate, formatTimestamp } from '../../clock/format.js';
import { minorToNumber } from '../../lib/money.js';
import type { Transaction } from '../../store/store.js';
import type { EventData, InvoiceCreatedData } from '../../types.js';
import { raiseEvent } from '../../webhooks/raise.js';
import type { EventAdds } from '../common/event-adds.js';
import type { InvoiceRecord } from './records.js';
import { invoiceTotals } from './totals.js';

/**
 * `data` of the `invoice.*` webhooks (docs/webhooks.md). `reference` is the invoice id: the
 * reference its payment gets, so every event payload names a reference to look it up by.
 */
export function invoiceEventData(invoice: InvoiceRecord): InvoiceCreatedData {
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

type InvoiceEventName = Extract<EventName, `invoice.${string}`>;

/** Raises an `invoice.*` event about `invoice` at `at`, with what the event adds (`adds`, typed by its schema). */
export function emitInvoiceEvent<N extends InvoiceEventName>(
  tx: Transaction,
  name: N,
  invoice: InvoiceRecord,
  at: number,
  ...[adds]: EventAdds<N, InvoiceCreatedData>
): void {
  // As emitPaymentEvent: the base and the adds are typed apart, joined here for the generic name.
  const data = Object.assign(invoiceEventData(invoice), adds) as unknown as EventData<N>;
  raiseEvent(tx, { name, source: invoice.source, mode: invoice.mode, data }, at);
}
