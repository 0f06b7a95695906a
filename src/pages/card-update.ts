import type { Reply } from '../http/envelope.js';
import type { OpenContext } from '../http/route.js';
import { formatMinor } from '../lib/money.js';
import { MethodSessions, methodSessionStatus, type MethodSessionRecord } from '../resources/payment-method-sessions/records.js';
import { attemptMethodUpdate, returnUrl } from '../resources/payment-method-sessions/service.js';
import { PaymentMethods } from '../resources/payment-methods/records.js';
import { Recurring } from '../resources/recurring/records.js';
import { cardFields, redirect, submitCard, testCardHelp, type CardFormState } from './card-form.js';
import { html, page, pagePath } from './html.js';
import { recordPages } from './record-pages.js';
import { cardText, everyText } from './subscription.js';

const pages = recordPages<MethodSessionRecord>({
  find: (ctx) => ctx.app.store.get(MethodSessions, ctx.params.id!),
  notFound: { heading: 'Page not found', text: 'There is no card update session with this address.' },
  instead: (ctx, session) => {
    const status = methodSessionStatus(session, ctx.now);
    if (status === 'expired')
      return { status: 410, html: page('Expired', html`<h1>This link has expired</h1><p>Ask the merchant for a new card update link.</p>`, session.mode) };
    if (status === 'complete') return updated(ctx, session);
    return undefined;
  },
});

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

function form(ctx: OpenContext, session: MethodSessionRecord, state: CardFormState, status = 200): Reply {
  const schedule = ctx.app.store.get(Recurring, session.recurring_id);
  const card = schedule && ctx.app.store.get(PaymentMethods, schedule.payment_method);
  const body = html`
    <h1>Update your card</h1>
    <p class="merchant">${schedule ? html`${formatMinor(schedule.amount)} ${schedule.currency} ${everyText(schedule.frequency, schedule.interval_count)} · ${schedule.reference}` : session.recurring_reference}</p>
    ${card ? html`<p class="muted" data-testid="card">Card on file: ${cardText(card.card_brand, card.card_last)}</p>` : ''}
    <p class="muted">The new card is verified and saved for future payments. Nothing is charged now.</p>
    ${state.declined ? html`<div class="alert" role="alert" data-testid="decline">The card was not accepted: ${state.declined} Try another card.</div>` : ''}
    <form method="post" action="${pagePath(ctx.app, `/card-update/${session.id}`)}" novalidate>
      ${cardFields(state)}
      <button type="submit">Save card</button>
    </form>
    ${session.mode === 'test' ? testCardHelp() : ''}`;
  return { status, html: page('Update your card', body, session.mode) };
}

function submit(ctx: OpenContext, session: MethodSessionRecord): Promise<Reply> {
  return submitCard(ctx, {
    mode: session.mode,
    form: (state, status) => form(ctx, session, state, status),
    challenge: { action: pagePath(ctx.app, `/card-update/${session.id}/3ds`), question: html`Your bank asks you to confirm that this card may be saved.` },
    attempt: (tx, card) => attemptMethodUpdate(tx, session.id, card, ctx.now),
    refused: { title: 'Card update', heading: 'Card not updated' },
    // A refused card goes back to the merchant's cancel_url when there is one.
    declined: (result) => (result.ok ? undefined : session.cancel_url ? redirect(returnUrl(session.cancel_url, 'failed')) : result.message),
    // Post/Redirect/Get: without a success_url, the session's own page, which now says the card
    // is updated; a reload shows it again without posting.
    done: () => redirect(session.success_url ? returnUrl(session.success_url, 'updated') : pagePath(ctx.app, `/card-update/${session.id}`)),
  });
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
