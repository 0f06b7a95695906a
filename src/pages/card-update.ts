import { readForm } from '../http/body.js';
import type { Reply } from '../http/envelope.js';
import { HttpError } from '../http/errors.js';
import type { OpenContext } from '../http/route.js';
import { formatMinor } from '../lib/money.js';
import { evaluateCard } from '../resources/common/test-cards.js';
import { MethodSessions, methodSessionStatus, type MethodSessionRecord } from '../resources/payment-method-sessions/records.js';
import { attemptMethodUpdate, returnUrl } from '../resources/payment-method-sessions/service.js';
import { PaymentMethods } from '../resources/payment-methods/records.js';
import { Recurring } from '../resources/recurring/records.js';
import { cardFields, challengePage, readCardForm, redirect, testCardHelp, type CardFormState } from './card-form.js';
import { html, page, pagePath } from './html.js';
import { recordPages } from './record-pages.js';
import { cardText, everyText } from './subscription.js';

const NOT_FOUND: Reply = { status: 404, html: page('Not found', html`<h1>Page not found</h1><p>There is no card update session with this address.</p>`) };

const pages = recordPages(withSession, NOT_FOUND);

/**
 * The hosted card-update page of a payment-method session: the customer enters a new card,
 * verified with 3-D Secure when the card asks for it, and saved; nothing is charged. Success
 * returns to `success_url?payment_method=updated`, a failure to `cancel_url?payment_method=failed`
 * (or shows the reason and the form again when there is no cancel_url).
 */
export const cardUpdatePages = [
  pages.get('/card-update/:id', (ctx, session) => form(ctx, session, {})),
  pages.post('/card-update/:id', submit),
  pages.post('/card-update/:id/3ds', submit),
];

function withSession(ctx: OpenContext, render: (session: MethodSessionRecord) => Reply | Promise<Reply>): Reply | Promise<Reply> {
  const session = ctx.app.store.get(MethodSessions, ctx.params.id!);
  if (!session) return NOT_FOUND;
  const status = methodSessionStatus(session, ctx.now);
  if (status === 'expired')
    return { status: 410, html: page('Expired', html`<h1>This link has expired</h1><p>Ask the merchant for a new card update link.</p>`, session.mode) };
  if (status === 'complete') return updated(ctx, session);
  return render(session);
}

function form(ctx: OpenContext, session: MethodSessionRecord, state: CardFormState & { failed?: string }, status = 200): Reply {
  const schedule = ctx.app.store.get(Recurring, session.recurring_id);
  const card = schedule && ctx.app.store.get(PaymentMethods, schedule.payment_method);
  const body = html`
    <h1>Update your card</h1>
    <p class="merchant">${schedule ? html`${formatMinor(schedule.amount)} ${schedule.currency} ${everyText(schedule.frequency, schedule.interval_count)} · ${schedule.reference}` : session.recurring_reference}</p>
    ${card ? html`<p class="muted" data-testid="card">Card on file: ${cardText(card.card_brand, card.card_last)}</p>` : ''}
    <p class="muted">The new card is verified and saved for future payments. Nothing is charged now.</p>
    ${state.failed ? html`<div class="alert" role="alert" data-testid="decline">The card was not accepted: ${state.failed} Try another card.</div>` : ''}
    <form method="post" action="${pagePath(ctx.app, `/card-update/${session.id}`)}" novalidate>
      ${cardFields(state)}
      <button type="submit">Save card</button>
    </form>
    ${session.mode === 'test' ? testCardHelp() : ''}`;
  return { status, html: page('Update your card', body, session.mode) };
}

async function submit(ctx: OpenContext, session: MethodSessionRecord): Promise<Reply> {
  const { values, problems, threeDs } = readCardForm(await readForm(ctx.req), ctx.now);
  if (Object.keys(problems).length > 0) return form(ctx, session, { values, problems }, 422);
  if (!threeDs && evaluateCard(values.card_number, session.mode).outcome === 'three_ds') {
    return challengePage(
      pagePath(ctx.app, `/card-update/${session.id}/3ds`),
      html`Your bank asks you to confirm that this card may be saved.`,
      values,
      session.mode,
    );
  }
  let result: ReturnType<typeof attemptMethodUpdate>;
  try {
    result = ctx.app.store.transaction((tx) => attemptMethodUpdate(tx, session.id, { cardNumber: values.card_number, threeDs }, ctx.now));
  } catch (error) {
    if (error instanceof HttpError)
      return { status: error.status, html: page('Card update', html`<h1>Card not updated</h1><p class="alert">${error.detail}</p>`, session.mode) };
    throw error;
  }
  if (!result.ok) {
    if (session.cancel_url) return redirect(returnUrl(session.cancel_url, 'failed'));
    return form(ctx, session, { values: { ...values, card_number: '' }, failed: result.message }, 402);
  }
  // Post/Redirect/Get: without a success_url, the session's own page, which now says the card
  // is updated; a reload shows it again without posting.
  return redirect(session.success_url ? returnUrl(session.success_url, 'updated') : pagePath(ctx.app, `/card-update/${session.id}`));
}

/** A completed session's page: the card now on file. */
function updated(ctx: OpenContext, session: MethodSessionRecord): Reply {
  const schedule = ctx.app.store.get(Recurring, session.recurring_id);
  const card = schedule && ctx.app.store.get(PaymentMethods, schedule.payment_method);
  const body = html`<h1>Card updated</h1><p class="alert ok" role="status">Your new card is on file.</p>
    ${card ? html`<p data-testid="card">${cardText(card.card_brand, card.card_last)}</p>` : ''}
    ${schedule ? html`<p class="muted">The next payments of ${schedule.reference} (${formatMinor(schedule.amount)} ${schedule.currency} ${everyText(schedule.frequency, schedule.interval_count)}) are charged to it.</p>` : ''}`;
  return { status: 200, html: page('Card updated', body, session.mode) };
}
