import {
  amountNumber,
  boolean,
  currency,
  date,
  document,
  integer,
  listDocument,
  messageMeta,
  metadata,
  money,
  named,
  nullable,
  number,
  object,
  oneOfValues,
  resource,
  sparse,
  string,
  timestamp,
  uri,
} from './wire.js';
import type { EventName } from '../bus/events.js';

/** JSON Schemas of the invoice answers and the `invoice.*` webhook payloads (see wire.ts). */
export const invoiceStatus = named('InvoiceStatus', oneOfValues(['draft', 'sent', 'paid', 'overdue']));

export const invoiceAttributes = named(
  'InvoiceAttributes',
  object({
    number: string,
    status: invoiceStatus,
    customer_name: string,
    customer_email: string,
    customer_address: nullable(string),
    currency,
    due_date: date,
    notes: nullable(string),
    terms: nullable(string),
    apply_tax: boolean,
    metadata,
    items: { type: 'array', items: object({ description: string, quantity: integer, unit_price: money, amount: money }) },
    subtotal: money,
    discount: money,
    tax_rate: number,
    tax_amount: money,
    total: money,
    payment_url: uri,
    payment_id: nullable(integer),
    sent_at: nullable(timestamp),
    paid_at: nullable(timestamp),
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

const invoice = <const A extends object>(attributes: A) => resource({ type: 'invoices', attributes, links: ['self', 'pay'] });

export const invoiceDocument = named('InvoiceDocument', document(invoice(invoiceAttributes)));
/** PATCH and send: the invoice and `meta.message`. */
export const invoiceMessageDocument = named('InvoiceMessageDocument', document(invoice(invoiceAttributes), { meta: messageMeta }));
/** An invoice in a read: `fields[invoices]` may leave attributes out. */
export const invoiceResource = named('Invoice', invoice(sparse(invoiceAttributes)));
export const invoiceReadDocument = named('InvoiceReadDocument', document(invoiceResource));
export const invoiceListDocument = named('InvoiceListDocument', listDocument(invoiceResource));

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
export const invoiceEventData = {
  'invoice.created': base(),
  'invoice.sent': base(),
  'invoice.paid': base({ payment_id: integer, payment_reference: string }, ['payment_id', 'payment_reference']),
  'invoice.overdue': base(),
} satisfies Record<Extract<EventName, `invoice.${string}`>, object>;
