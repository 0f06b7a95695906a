import type { EventDataOf } from '../common/event-adds.js';
import { invoiceStatus } from '../../schemas/invoices.js';
import { amountNumber, currency, date, integer, metadata, object, string, timestamp } from '../../schemas/wire.js';

/**
 * The `invoice.*` events the invoices module declares (its `events`): each one's webhook `data`
 * schema, and the map of their types.
 */
const eventBase = {
  invoice_id: string,
  reference: string,
  number: string,
  status: invoiceStatus,
  customer_email: string,
  customer_name: string,
  currency,
  subtotal: amountNumber,
  discount: amountNumber,
  tax_amount: amountNumber,
  total: amountNumber,
  due_date: date,
  metadata,
  sent_at: timestamp,
  paid_at: timestamp,
};
const base = <const E extends Record<string, object> = Record<never, never>, const O extends string = never>(extra?: E, optional: readonly O[] = []) =>
  object({ ...eventBase, ...(extra as E) }, ['sent_at', 'paid_at', ...optional]);

/**
 * `data` of each `invoice.*` webhook: `sent_at` once sent, `paid_at` once paid; `invoice.paid`
 * names its payment (`payment_id`, `payment_reference`) unless the invoice was of 0.00.
 */
export const invoiceEvents = {
  'invoice.created': base(),
  'invoice.sent': base(),
  'invoice.paid': base({ payment_id: integer, payment_reference: string }, ['payment_id', 'payment_reference']),
  'invoice.overdue': base(),
};

/** The `data` of each `invoice.*` webhook, by event name: what `emitInvoiceEvent` takes. */
export type InvoiceEventDataMap = EventDataOf<typeof invoiceEvents>;
