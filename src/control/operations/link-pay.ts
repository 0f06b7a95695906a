import type { CardAttempt } from '../types.js';
import { presentLink } from '../../resources/payment-links/present.js';
import { PaymentLinks } from '../../resources/payment-links/records.js';
import { linkIdParameter } from '../../resources/payment-links/wire.js';
import { getLink } from '../../resources/payment-links/service.js';
import { presentPaymentSummary } from '../../resources/payments/present.js';
import { openCheckout } from '../../resources/sessions/from-link.js';
import { attemptPayment } from '../../resources/sessions/service.js';
import { cardAttemptBody, type CardAttemptBody } from '../../schemas/card.js';
import { linkPaid } from '../../schemas/control.js';
import { type Input, operation } from '../operation.js';
import { cardAttempt } from '../pay.js';

/** `POST /_payemu/payment-links/:id/pay`: pays through a payment link as the hosted link page would (opens a checkout and pays it). */
export const linkPay = operation({
  method: 'POST',
  path: '/_payemu/payment-links/:id/pay',
  pathParameters: { id: linkIdParameter },
  summary: 'Pay through a payment link with a card number, as the hosted page does',
  body: cardAttemptBody,
  result: linkPaid,
  errors: [404, 409, 422],
  run: (app, scope, { params, body }: Input<CardAttemptBody, never, 'id'>, { now }) => {
    // The link is read in the transaction: with an Idempotency-Key it is nested in the one
    // that saves the answer, and the store would still show the link before this use.
    const { result, link } = app.store.transaction((tx) => {
      const session = openCheckout(tx, scope, getLink(tx, scope, params.id), now);
      const result = attemptPayment(tx, session.id, cardAttempt(body), now, app.config());
      return { result, link: tx.get(PaymentLinks, String(Number(params.id)))! };
    });
    const base = app.baseUrl();
    return { session_id: result.session.id, payment: presentPaymentSummary(result.payment, base), payment_link: presentLink(link, base, now).attributes };
  },
  client: { name: 'payLink', args: (id: string | number, card: CardAttempt) => ({ params: { id }, body: card }) },
});
