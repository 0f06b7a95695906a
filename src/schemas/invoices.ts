import type { FromSchema } from 'json-schema-to-ts';
import {
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

/** JSON Schemas of the invoice answers (see wire.ts); the `invoice.*` webhook payloads are in src/resources/invoices/webhooks.ts. */
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

export type InvoiceAttributes = FromSchema<typeof invoiceAttributes>;
