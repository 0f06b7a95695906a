import type { FromSchema } from 'json-schema-to-ts';
import { boolean, currency, date, integer, metadata, money, named, nullable, number, object, oneOfValues, string, timestamp, uri } from './wire.js';

/**
 * An invoice's status and attributes (see wire.ts), which the control plane's pay answer embeds
 * too; the `/v1` answers are in src/resources/invoices/wire.ts, the `invoice.*` webhook payloads
 * in src/resources/invoices/webhooks.ts.
 */
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

export type InvoiceAttributes = FromSchema<typeof invoiceAttributes>;
