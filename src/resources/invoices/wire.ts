import { document, listDocument, messageMeta, named, resource, sparse } from '../../schemas/wire.js';
import { invoiceAttributes } from '../../schemas/invoices.js';

/** JSON Schemas of the invoice answers of `/v1` (an invoice's attributes are shared with the control plane: src/schemas/invoices.ts). */
const invoice = <const A extends object>(attributes: A) => resource({ type: 'invoices', attributes, links: ['self', 'pay'] });

export const invoiceDocument = named('InvoiceDocument', document(invoice(invoiceAttributes)));
/** PATCH and send: the invoice and `meta.message`. */
export const invoiceMessageDocument = named('InvoiceMessageDocument', document(invoice(invoiceAttributes), { meta: messageMeta }));
/** An invoice in a read: `fields[invoices]` may leave attributes out. */
export const invoiceResource = named('Invoice', invoice(sparse(invoiceAttributes)));
export const invoiceReadDocument = named('InvoiceReadDocument', document(invoiceResource));
export const invoiceListDocument = named('InvoiceListDocument', listDocument(invoiceResource));
