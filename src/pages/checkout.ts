import type { App } from '../app.js';
import { formatDate } from '../clock/format.js';
import type { Reply } from '../http/envelope.js';
import type { OpenContext } from '../http/route.js';
import { formatMinor } from '../lib/money.js';
import { scopeKey } from '../lib/scope-key.js';
import { PaymentLinks } from '../resources/payment-links/records.js';
import { Payments } from '../resources/common/payment-records.js';
import { Recurring } from '../resources/recurring/records.js';
import { referenceKey } from '../resources/common/references.js';
import { sessionStatus, Sessions, type SessionRecord } from '../resources/sessions/records.js';
import { attemptPayment } from '../resources/sessions/service.js';
import { cardFields, redirect, submitCard, testCardHelp, type CardFormState } from './card-form.js';
import { html, page, pagePath } from './html.js';
import { recordPages } from './record-pages.js';
import { cardText, everyText, subscriptionTerms } from './subscription.js';

const pages = recordPages<SessionRecord>({
  find: (ctx) => ctx.app.store.get(Sessions, ctx.params.id!),
  notFound: { heading: 'Checkout not found', text: 'There is no checkout session with this address.' },
  instead: (ctx, session) => {
    const status = sessionStatus(session, ctx.now);
    if (status === 'expired') {
      return {
        status: 410,
        html: page(
          'Checkout expired',
          html`<h1>This checkout has expired</h1><p>Checkout sessions last 24 hours. Return to the shop to start a new checkout.</p>`,
          session.mode,
        ),
      };
    }
    if (status === 'complete') return done(ctx.app, session);
    return undefined;
  },
});

/**
 * The hosted sandbox checkout at a session's `checkout_url`: amount, description, a card form,
 * pay and cancel. The card number decides the outcome (the test cards); a decline
 * shows its reason and the form again; 4000 0027 6000 3184 goes through a 3-D Secure page.
 */
export const checkoutPages = [
  pages.get('/checkout/:id', (ctx, session) => showForm(ctx, session, {})),
  pages.post('/checkout/:id/pay', pay),
  pages.post('/checkout/:id/3ds', pay),
  pages.button('/checkout/:id/cancel', (ctx, session) => redirect(session.cancel_url ?? pagePath(ctx.app, `/checkout/${session.id}/cancelled`))),
  pages.get('/checkout/:id/cancelled', (ctx, session) => ({
    status: 200,
    html: page(
      'Payment cancelled',
      html`<h1>Payment cancelled</h1><p>You cancelled the payment; nothing was charged.</p><p><a href="${pagePath(ctx.app, `/checkout/${session.id}`)}">Return to the checkout</a></p>`,
      session.mode,
    ),
  })),
  pages.get('/checkout/:id/done', (ctx, session) => done(ctx.app, session)),
];

/**
 * The receipt: what was paid (or authorized), to whom, with which card, the reference; for a
 * recurring payment link, the subscription it started and a link to manage it.
 */
function done(app: App, session: SessionRecord): Reply {
  if (session.status !== 'complete') {
    return {
      status: 409,
      html: page('Not paid', html`<h1>Not paid yet</h1><p><a href="${pagePath(app, `/checkout/${session.id}`)}">Return to the checkout</a></p>`, session.mode),
    };
  }
  const source = app.config().sources.find((s) => s.slug === session.source);
  const payment = app.store.find(Payments, 'reference', referenceKey(session.mode, session.reference))[0];
  const authorized = session.payment_status === 'authorized';
  const money = `${formatMinor(session.amount)} ${session.currency}`;
  // The schedule a recurring link's payment started: made in the same transaction (same time),
  // with this payment's card unless the customer has since replaced it.
  const started =
    session.payment_link_id === undefined
      ? []
      : app.store
          .find(Recurring, 'scope', scopeKey(session.source, session.mode))
          .filter((r) => r.payment_link_id === session.payment_link_id && r.created_at === session.completed_at);
  const schedule = started.find((r) => r.payment_method === payment?.payment_method) ?? (started.length === 1 ? started[0] : undefined);
  const body = html`<h1>Payment complete</h1>
    <p class="alert ok" role="status">${authorized ? 'The payment was authorized: the amount is held on your card.' : 'Thank you: your payment was received.'}</p>
    <p class="amount" data-testid="amount">${money}</p>
    <p class="merchant">${authorized ? 'Authorized for' : 'Paid to'} ${source?.name ?? session.source}</p>
    <table class="receipt" data-testid="receipt">
      ${session.description ? html`<tr><td>For</td><td>${session.description}</td></tr>` : ''}
      <tr><td>Reference</td><td data-testid="reference">${session.reference}</td></tr>
      ${payment?.card_last ? html`<tr><td>Card</td><td data-testid="card">${cardText(payment.card_brand, payment.card_last)}</td></tr>` : ''}
      ${session.completed_at !== undefined ? html`<tr><td>Date</td><td>${formatDate(session.completed_at)}</td></tr>` : ''}
    </table>
    ${
      schedule
        ? html`<div class="subscription" data-testid="subscription"><p><strong>Subscription: ${formatMinor(session.amount)} ${session.currency} ${everyText(schedule.frequency, schedule.interval_count)}</strong></p>
          <p>${schedule.next_billing_date === null ? 'No later charge.' : `Next charge ${formatDate(schedule.next_billing_date)}.`} <a href="${pagePath(app, `/manage/${schedule.manage_token}`)}">Manage your subscription</a></p></div>`
        : ''
    }`;
  return { status: 200, html: page('Payment complete', body, session.mode) };
}

function pay(ctx: OpenContext, session: SessionRecord): Promise<Reply> {
  return submitCard(ctx, {
    mode: session.mode,
    form: (state, status) => showForm(ctx, session, state, status),
    challenge: {
      action: pagePath(ctx.app, `/checkout/${session.id}/3ds`),
      question: html`Your bank asks you to confirm this payment of <strong>${formatMinor(session.amount)} ${session.currency}</strong>.`,
    },
    attempt: (tx, card) => attemptPayment(tx, session.id, card, ctx.now, ctx.app.config()),
    refused: { title: 'Checkout', heading: 'Payment not possible' },
    declined: (result) => (result.outcome.outcome === 'decline' ? result.payment.failure_message : undefined),
    done: () => redirect(session.success_url ?? pagePath(ctx.app, `/checkout/${session.id}/done`)),
  });
}

function showForm(ctx: OpenContext, session: SessionRecord, state: CardFormState, status = 200): Reply {
  const source = ctx.app.config().sources.find((s) => s.slug === session.source);
  const money = `${formatMinor(session.amount)} ${session.currency}`;
  // A checkout opened from a recurring payment link starts a subscription: say so before the card.
  const link = session.payment_link_id === undefined ? undefined : ctx.app.store.get(PaymentLinks, session.payment_link_id);
  const recurring = link?.recurring ?? null;
  const body = html`
    <h1>${source?.name ?? session.source}</h1>
    <p class="merchant">Sandbox checkout</p>
    <p class="amount" data-testid="amount">${money}</p>
    ${session.description ? html`<p class="description">${session.description}</p>` : ''}
    ${recurring ? subscriptionTerms(recurring, money, ctx.now) : ''}
    ${state.declined ? html`<div class="alert" role="alert" data-testid="decline">Payment declined: ${state.declined} Try another card.</div>` : ''}
    <form method="post" action="${pagePath(ctx.app, `/checkout/${session.id}/pay`)}" novalidate>
      ${cardFields(state)}
      <button type="submit">Pay ${money}${recurring ? ' and subscribe' : ''}</button>
    </form>
    <form method="post" action="${pagePath(ctx.app, `/checkout/${session.id}/cancel`)}"><button class="secondary" type="submit">Cancel</button></form>
    ${session.mode === 'test' ? testCardHelp() : ''}`;
  return { status, html: page(`Pay ${source?.name ?? ''}`, body, session.mode) };
}
