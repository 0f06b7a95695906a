import { Conflict, NotFound, Unprocessable } from '../../http/errors.js';
import type { Transaction } from '../../store/store.js';
import { presentCard, type CardOutcome } from '../common/test-cards.js';
import { takeScriptedStep, withScriptedStep } from '../outcomes/service.js';
import { recordPayment } from '../payments/record.js';
import type { PaymentRecord } from '../common/payment-records.js';
import { emitInvoiceEvent } from './events.js';
import { Invoices, type InvoiceRecord } from './records.js';
import { invoiceTotals } from './totals.js';

/**
 * Pays a sent or overdue invoice with a card, as its hosted page does. The invoice's payment
 * has the invoice id as its reference; a decline records a FAILED payment and the invoice stays
 * payable. Success: `payment.completed`, then `invoice.paid`.
 */
export function payInvoice(
  tx: Transaction,
  id: string,
  attempt: { cardNumber: string; threeDs?: 'pass' | 'fail' },
  now: number,
  scope?: { source: string; mode: string },
): { invoice: InvoiceRecord; payment: PaymentRecord; outcome: CardOutcome } {
  const invoice = tx.get(Invoices, id);
  if (!invoice || (scope && (invoice.source !== scope.source || invoice.mode !== scope.mode))) throw new NotFound(`No invoice with id "${id}".`);
  if (invoice.status === 'paid') throw new Conflict(`The invoice ${invoice.number} is already paid.`);
  if (invoice.status === 'draft') throw new Unprocessable(`The invoice ${invoice.number} is a draft: only sent or overdue invoices can be paid.`);
  const outcome = withScriptedStep(
    presentCard(attempt.cardNumber, invoice.mode, attempt.threeDs),
    takeScriptedStep(tx, invoice.source, invoice.mode, { reference: invoice.id }),
  );
  const payment = recordPayment(
    tx,
    {
      source: invoice.source,
      mode: invoice.mode,
      reference: invoice.id,
      amount: invoiceTotals(invoice.items, invoice.discount, invoice.tax_rate).total,
      currency: invoice.currency,
      capture_method: 'automatic',
      description: `Invoice ${invoice.number}`,
      customer_email: invoice.customer_email,
      customer_name: invoice.customer_name,
      metadata: invoice.metadata,
      card_brand: outcome.brand,
      card_last: outcome.last4,
      ...(outcome.outcome === 'decline' ? { failure: { code: outcome.code, message: outcome.message } } : {}),
      origin: { invoice_id: invoice.id },
    },
    now,
  );
  if (outcome.outcome === 'decline') return { invoice, payment, outcome };
  const paid = tx.put(Invoices, { ...invoice, status: 'paid', paid_at: now, payment_id: payment.id, updated_at: now });
  emitInvoiceEvent(tx, 'invoice.paid', paid, now, { payment_id: Number(payment.id), payment_reference: payment.reference });
  return { invoice: paid, payment, outcome };
}
