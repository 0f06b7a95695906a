import type { CardAttempt } from '../types.js';
import { payInvoice } from '../../resources/invoices/pay.js';
import { presentInvoice } from '../../resources/invoices/present.js';
import { presentPaymentSummary } from '../../resources/payments/present.js';
import { cardAttemptBody, type CardAttemptBody } from '../../schemas/card.js';
import { invoicePaid } from '../../schemas/control.js';
import { type Input, operation } from '../operation.js';
import { cardAttempt } from '../pay.js';

/** `POST /_payemu/invoices/:id/pay`: pays a sent or overdue invoice as the hosted invoice page would; the answer names the payment. */
export const invoicePay = operation({
  method: 'POST',
  path: '/_payemu/invoices/:id/pay',
  summary: 'Pay a sent or overdue invoice with a card number, as the hosted page does',
  body: cardAttemptBody,
  result: invoicePaid,
  errors: [404, 409, 422],
  run: (app, scope, { params, body }: Input<CardAttemptBody, never, 'id'>, { now }) => {
    const result = app.store.transaction((tx) => payInvoice(tx, params.id, cardAttempt(body), now, { source: scope.source.slug, mode: scope.mode }));
    const base = app.baseUrl();
    return { invoice: presentInvoice(result.invoice, base).attributes, payment: presentPaymentSummary(result.payment, base) };
  },
  client: { name: 'payInvoice', args: (id: string, card: CardAttempt) => ({ params: { id }, body: card }) },
});
