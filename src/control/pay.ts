import type { Reply } from '../http/envelope.js';
import { control, type ApiContext, type ApiRoute } from '../http/route.js';
import { cardAttemptBody, type CardAttemptBody } from '../schemas/card.js';
import { payInvoice } from '../resources/invoices/pay.js';
import { presentInvoice } from '../resources/invoices/present.js';
import { presentLink } from '../resources/payment-links/present.js';
import { PaymentLinks } from '../resources/payment-links/records.js';
import { getLink } from '../resources/payment-links/service.js';
import { openCheckout } from '../resources/sessions/from-link.js';
import { methodSessionStatus } from '../resources/payment-method-sessions/records.js';
import { attemptMethodUpdate, getMethodSession, type MethodAttemptResult } from '../resources/payment-method-sessions/service.js';
import { presentPaymentSummary } from '../resources/payments/present.js';
import { presentRecurring } from '../resources/recurring/present.js';
import { sessionStatus } from '../resources/sessions/records.js';
import { attemptPayment, getSession } from '../resources/sessions/service.js';
import { errors } from '../schemas/wire.js';
import { invoicePaid, linkPaid, sessionCompleted } from '../schemas/control.js';

/**
 * Paying without a browser: `POST /_payemu/sessions/{id}/complete`, `/_payemu/invoices/{id}/pay`
 * and `/_payemu/payment-links/{id}/pay` do what the hosted pages do with a card number, and
 * answer with what happened (a decline is a 200 naming the FAILED payment).
 */
export const payRoutes = [
  // Completes a checkout, or a payment-method session, as the hosted page would .
  payRoute({
    path: '/_payemu/sessions/:id/complete',
    summary: 'Pay a checkout session (or replace the card of a payment-method session) with a card number, as the hosted page does',
    paid: sessionCompleted,
    expired: true,
    handle: ({ app, scope, params, body, now }) => {
      const attempt = cardAttempt(body);
      if (getMethodSession(app.store, scope, params.id!)) {
        const result = app.store.transaction((tx) => attemptMethodUpdate(tx, params.id!, attempt, now));
        return { status: 200, json: presentMethodAttempt(result, app.baseUrl(), now) };
      }
      const result = app.store.transaction((tx) => {
        getSession(tx, scope, params.id!);
        return attemptPayment(tx, params.id!, attempt, now, app.config());
      });
      return {
        status: 200,
        json: {
          session: { id: result.session.id, status: sessionStatus(result.session, now), payment_status: result.session.payment_status },
          payment: presentPaymentSummary(result.payment, app.baseUrl()),
        },
      };
    },
  }),
  // Pays as the hosted invoice page would; the answer names the payment.
  payRoute({
    path: '/_payemu/invoices/:id/pay',
    summary: 'Pay a sent or overdue invoice with a card number, as the hosted page does',
    paid: invoicePaid,
    handle: ({ app, scope, params, body, now }) => {
      const result = app.store.transaction((tx) => payInvoice(tx, params.id!, cardAttempt(body), now, { source: scope.source.slug, mode: scope.mode }));
      const base = app.baseUrl();
      return { status: 200, json: { invoice: presentInvoice(result.invoice, base).attributes, payment: presentPaymentSummary(result.payment, base) } };
    },
  }),
  // Pays as the hosted link page would: opens a checkout and pays it.
  payRoute({
    path: '/_payemu/payment-links/:id/pay',
    summary: 'Pay through a payment link with a card number, as the hosted page does',
    paid: linkPaid,
    handle: ({ app, scope, params, body, now }) => {
      // The link is read in the transaction: with an Idempotency-Key it is nested in the one
      // that saves the answer, and the store would still show the link before this use.
      const { result, link } = app.store.transaction((tx) => {
        const session = openCheckout(tx, scope, getLink(tx, scope, params.id!), now);
        const result = attemptPayment(tx, session.id, cardAttempt(body), now, app.config());
        return { result, link: tx.get(PaymentLinks, String(Number(params.id)))! };
      });
      const base = app.baseUrl();
      return {
        status: 200,
        json: { session_id: result.session.id, payment: presentPaymentSummary(result.payment, base), payment_link: presentLink(link, base, now).attributes },
      };
    },
  }),
];

/**
 * A route that pays with a card as a hosted page does: `POST` with the card in the body, a 200
 * answer `paid` (a decline too), and the refusals in the envelope (404, 409, 422; 410 where the
 * thing paid can expire).
 */
function payRoute(route: {
  path: string;
  summary: string;
  paid: object;
  expired?: boolean;
  handle: (ctx: ApiContext<CardAttemptBody>) => Reply | Promise<Reply>;
}): ApiRoute {
  // Integer keys keep ascending order: 410 lands between 409 and 422, where the document lists it.
  const responses: Record<number, object> = { 200: route.paid, 404: errors, 409: errors, 422: errors };
  if (route.expired) responses[410] = errors;
  return control<CardAttemptBody>({ method: 'POST', path: route.path, summary: route.summary, responses, body: cardAttemptBody, handle: route.handle });
}

/** The card of the body as the services take it. */
const cardAttempt = (body: CardAttemptBody) => ({ cardNumber: body.card_number, threeDs: body.three_ds });

function presentMethodAttempt(result: MethodAttemptResult, base: string, now: number) {
  const session = { id: result.session.id, type: 'payment-method-session', status: methodSessionStatus(result.session, now) };
  if (!result.ok) return { session, updated: false, failure_code: result.code, failure_message: result.message };
  return {
    session,
    updated: true,
    payment_method: { id: result.method.id, card_brand: result.method.card_brand, card_last: result.method.card_last },
    recurring: presentRecurring(result.schedule, base).attributes,
  };
}
