import type { App } from '../app.js';
import { readForm } from '../http/body.js';
import type { Reply } from '../http/envelope.js';
import { HttpError } from '../http/errors.js';
import type { OpenContext } from '../http/route.js';
import { formatMinor } from '../lib/money.js';
import { evaluateCard } from '../resources/cards/test-cards.js';
import { cardFields, challengePage, readCardForm, redirect, testCardHelp, type CardFormState } from './card-form.js';
import { sessionStatus, Sessions, type SessionRecord } from '../resources/sessions/records.js';
import { attemptPayment } from '../resources/sessions/service.js';
import { html, page, pageRoute } from './html.js';

/**
 * The hosted sandbox checkout at a session's `checkout_url`: amount, description, a card form,
 * pay and cancel. The card number decides the outcome (the test cards); a decline
 * shows its reason and the form again; 4000 0027 6000 3184 goes through a 3-D Secure page.
 */
export const checkoutPages = [
  pageRoute({ method: 'GET', path: '/checkout/:id', handle: (ctx) => withSession(ctx, (session) => showForm(ctx.app, session, {})) }),
  pageRoute({ method: 'POST', path: '/checkout/:id/pay', handle: (ctx) => withSession(ctx, (session) => pay(ctx, session)) }),
  pageRoute({ method: 'POST', path: '/checkout/:id/3ds', handle: (ctx) => withSession(ctx, (session) => pay(ctx, session)) }),
  pageRoute({
    method: 'POST',
    path: '/checkout/:id/cancel',
    handle: (ctx) =>
      withSession(ctx, async (session) => {
        await readForm(ctx.req);
        if (session.cancel_url) return redirect(session.cancel_url);
        return { status: 200, html: page('Payment cancelled', html`<h1>Payment cancelled</h1><p>You cancelled the payment; nothing was charged.</p><p><a href="/checkout/${session.id}">Return to the checkout</a></p>`, session.mode) };
      }),
  }),
  pageRoute({
    method: 'GET',
    path: '/checkout/:id/done',
    handle: (ctx) => withSession(ctx, (session) => done(session)),
  }),
];

interface FormState extends CardFormState {
  declined?: string;
}

async function withSession(ctx: OpenContext, render: (session: SessionRecord) => Reply | Promise<Reply>): Promise<Reply> {
  const session = ctx.app.store.get(Sessions, ctx.params.id!);
  if (!session) return { status: 404, html: page('Not found', html`<h1>Checkout not found</h1><p>There is no checkout session with this address.</p>`) };
  const status = sessionStatus(session, ctx.now);
  if (status === 'expired') {
    return { status: 410, html: page('Checkout expired', html`<h1>This checkout has expired</h1><p>Checkout sessions last 24 hours. Return to the shop to start a new checkout.</p>`, session.mode) };
  }
  if (status === 'complete') return done(session);
  return render(session);
}

function done(session: SessionRecord): Reply {
  const paid = session.status === 'complete';
  return {
    status: paid ? 200 : 409,
    html: page(
      paid ? 'Payment complete' : 'Not paid',
      paid
        ? html`<h1>Payment complete</h1><p class="alert ok">${session.payment_status === 'authorized' ? 'The payment was authorized.' : 'Thank you: your payment was received.'}</p>
          <p class="muted">Reference ${session.reference}</p>`
        : html`<h1>Not paid yet</h1><p><a href="/checkout/${session.id}">Return to the checkout</a></p>`,
      session.mode,
    ),
  };
}

async function pay(ctx: OpenContext, session: SessionRecord): Promise<Reply> {
  const { values, problems, threeDs } = readCardForm(await readForm(ctx.req), ctx.now);
  if (Object.keys(problems).length > 0) return showForm(ctx.app, session, { values, problems }, 422);
  if (!threeDs && evaluateCard(values.card_number, session.mode).outcome === 'three_ds') return challengePage(
      `/checkout/${session.id}/3ds`,
      html`Your bank asks you to confirm this payment of <strong>${formatMinor(session.amount)} ${session.currency}</strong>.`,
      values,
      session.mode,
    );
  let result: ReturnType<typeof attemptPayment>;
  try {
    result = ctx.app.store.transaction((tx) => attemptPayment(tx, session.id, { cardNumber: values.card_number, threeDs }, ctx.now, ctx.app.config()));
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, html: page('Checkout', html`<h1>Payment not possible</h1><p class="alert">${error.detail}</p>`, session.mode) };
    throw error;
  }
  if (result.outcome.outcome === 'decline') {
    return showForm(ctx.app, result.session, { values: { ...values, card_number: '' }, declined: result.payment.failure_message }, 402);
  }
  return redirect(session.success_url ?? `/checkout/${session.id}/done`);
}

function showForm(app: App, session: SessionRecord, state: FormState, status = 200): Reply {
  const source = app.config().sources.find((s) => s.slug === session.source);
  const body = html`
    <h1>${source?.name ?? session.source}</h1>
    <p class="merchant">Sandbox checkout</p>
    <p class="amount" data-testid="amount">${formatMinor(session.amount)} ${session.currency}</p>
    ${session.description ? html`<p class="description">${session.description}</p>` : ''}
    ${state.declined ? html`<div class="alert" role="alert" data-testid="decline">Payment declined: ${state.declined} Try another card.</div>` : ''}
    <form method="post" action="/checkout/${session.id}/pay" novalidate>
      ${cardFields(state)}
      <button type="submit">Pay ${formatMinor(session.amount)} ${session.currency}</button>
    </form>
    <form method="post" action="/checkout/${session.id}/cancel"><button class="secondary" type="submit">Cancel</button></form>
    ${session.mode === 'test' ? testCardHelp() : ''}`;
  return { status, html: page(`Pay ${source?.name ?? ''}`, body, session.mode) };
}
