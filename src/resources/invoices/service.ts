import { parseTimestamp, startOfDay } from '../../clock/format.js';
import type { Scope } from '../../http/auth.js';
import { NotFound, Unprocessable } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { toMinor } from '../../lib/money.js';
import type { Transaction } from '../../store/store.js';
import { nextCounter } from '../meta/records.js';
import { invoiceCounter, Invoices, type InvoiceRecord } from './records.js';
import type { CreateInvoiceBody, UpdateInvoiceBody } from './schemas.js';
import { invoiceRate, invoiceTotals } from './totals.js';
import { emitInvoiceEvent } from './events.js';

export function getInvoice(reader: Pick<Transaction, 'get'>, scope: Scope, id: string): InvoiceRecord {
  const invoice = reader.get(Invoices, id);
  if (!invoice || invoice.source !== scope.source.slug || invoice.mode !== scope.mode) throw new NotFound(`No invoice with id "${id}".`);
  return invoice;
}

function dueDate(text: string, now: number): number {
  const date = parseTimestamp(text)!;
  if (date < startOfDay(now)) throw Unprocessable.field('due_date', 'The due_date field must be a date today or later.');
  return date;
}

const items = (list: CreateInvoiceBody['items']) => list.map((i) => ({ description: i.description, quantity: i.quantity, unit_price: toMinor(i.unit_price) }));

/** A created invoice is a draft; `invoice.created`. */
export function createInvoice(tx: Transaction, scope: Scope, body: CreateInvoiceBody, now: number): InvoiceRecord {
  const invoice: InvoiceRecord = {
    id: newId('inv_'),
    source: scope.source.slug,
    mode: scope.mode,
    number: `INV-${String(nextCounter(tx, invoiceCounter(scope.source.slug, scope.mode))).padStart(6, '0')}`,
    status: 'draft',
    customer_name: body.customer_name,
    customer_email: body.customer_email,
    customer_address: body.customer_address ?? null,
    currency: body.currency.toUpperCase(),
    due_date: dueDate(body.due_date, now),
    notes: body.notes ?? null,
    terms: body.terms ?? null,
    discount: toMinor(body.discount ?? 0),
    tax_rate: invoiceRate(body.tax_rate, body.apply_tax ?? false, scope.source.tax),
    apply_tax: body.apply_tax ?? false,
    metadata: body.metadata ?? {},
    items: items(body.items),
    sent_at: null,
    paid_at: null,
    payment_id: null,
    created_at: now,
    updated_at: now,
  };
  invoiceTotals(invoice.items, invoice.discount, invoice.tax_rate);
  tx.put(Invoices, invoice);
  emitInvoiceEvent(tx, 'invoice.created', invoice, now);
  return invoice;
}

/** PATCH: only a draft can be modified (else 422 "Only draft invoices can be modified"). */
export function updateInvoice(tx: Transaction, scope: Scope, id: string, body: UpdateInvoiceBody, now: number): InvoiceRecord {
  const invoice = getInvoice(tx, scope, id);
  if (invoice.status !== 'draft') throw new Unprocessable('Only draft invoices can be modified');
  const next: InvoiceRecord = {
    ...invoice,
    ...(body.customer_name !== undefined ? { customer_name: body.customer_name } : {}),
    ...(body.customer_email !== undefined ? { customer_email: body.customer_email } : {}),
    ...(body.customer_address !== undefined ? { customer_address: body.customer_address } : {}),
    ...(body.currency !== undefined ? { currency: body.currency.toUpperCase() } : {}),
    ...(body.due_date !== undefined ? { due_date: dueDate(body.due_date, now) } : {}),
    ...(body.notes !== undefined ? { notes: body.notes } : {}),
    ...(body.terms !== undefined ? { terms: body.terms } : {}),
    ...(body.discount !== undefined ? { discount: toMinor(body.discount ?? 0) } : {}),
    ...(body.tax_rate !== undefined ? { tax_rate: invoiceRate(body.tax_rate, invoice.apply_tax, scope.source.tax) } : {}),
    ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
    ...(body.items !== undefined ? { items: items(body.items) } : {}),
    updated_at: now,
  };
  invoiceTotals(next.items, next.discount, next.tax_rate);
  return tx.put(Invoices, next);
}

/**
 * Send only from draft; `invoice.sent`. An invoice whose total is 0.00 (a discount equal to the
 * subtotal) has nothing to pay: it is paid when sent, `invoice.sent` then `invoice.paid`, with no
 * payment (`payment_id` stays null).
 */
export function sendInvoice(tx: Transaction, scope: Scope, id: string, now: number): InvoiceRecord {
  const invoice = getInvoice(tx, scope, id);
  if (invoice.status !== 'draft') throw new Unprocessable(`Only draft invoices can be sent; this invoice is ${invoice.status}.`);
  const sent: InvoiceRecord = { ...invoice, status: 'sent', sent_at: now, updated_at: now };
  emitInvoiceEvent(tx, 'invoice.sent', sent, now);
  if (invoiceTotals(sent.items, sent.discount, sent.tax_rate).total > 0) return tx.put(Invoices, sent);
  const paid = tx.put(Invoices, { ...sent, status: 'paid', paid_at: now });
  emitInvoiceEvent(tx, 'invoice.paid', paid, now);
  return paid;
}
