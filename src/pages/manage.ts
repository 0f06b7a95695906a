import { formatDate } from '../clock/format.js';
import type { Reply } from '../http/envelope.js';
import type { OpenContext } from '../http/route.js';
import { formatMinor } from '../lib/money.js';
import { createMethodSession } from '../resources/payment-method-sessions/service.js';
import { PaymentMethods } from '../resources/payment-methods/records.js';
import { Recurring, type RecurringRecord } from '../resources/recurring/records.js';
import { cancelRecurring } from '../resources/recurring/service.js';
import { redirect } from './card-form.js';
import { html, page, pagePath } from './html.js';
import { recordPages } from './record-pages.js';
import { cardText, everyText } from './subscription.js';

const pages = recordPages<RecurringRecord>({
  find: (ctx) => {
    const schedule = ctx.app.store.find(Recurring, 'manage', ctx.params.token!)[0];
    return schedule && ctx.app.config().sources.some((s) => s.slug === schedule.source) ? schedule : undefined;
  },
  notFound: { heading: 'Page not found', text: 'There is no subscription at this address.' },
});

/**
 * A schedule's `manage_url`: the customer sees the schedule and the card it charges, and can
 * replace the card or cancel. Each form post answers 303 back to this page (Post/Redirect/Get),
 * so a reload shows the page again without posting.
 */
export const managePages = [
  pages.get('/manage/:token', show),
  pages.button('/manage/:token/cancel', (ctx, schedule) => {
    if (schedule.status !== 'cancelled') ctx.app.store.transaction((tx) => cancelRecurring(tx, scopeOf(ctx, schedule), schedule.reference, ctx.now));
    return redirect(pagePath(ctx.app, `/manage/${schedule.manage_token}`));
  }),
  pages.button('/manage/:token/card', (ctx, schedule) => {
    if (!changeable(schedule)) return redirect(pagePath(ctx.app, `/manage/${schedule.manage_token}`));
    // A payment-method session, as the merchant's POST .../payment-method-session opens: its
    // card-update page comes back here once the card is saved (a refused card shows the form
    // again with the reason).
    const session = ctx.app.store.transaction((tx) =>
      createMethodSession(tx, scopeOf(ctx, schedule), schedule.reference, { success_url: pagePath(ctx.app, `/manage/${schedule.manage_token}`) }, ctx.now),
    );
    return redirect(pagePath(ctx.app, `/card-update/${session.id}`));
  }),
];

const scopeOf = (ctx: OpenContext, schedule: RecurringRecord) => ({
  source: ctx.app.config().sources.find((s) => s.slug === schedule.source)!,
  mode: schedule.mode,
});

/** A cancelled or completed schedule charges nothing more: nothing to change. */
const changeable = (schedule: RecurringRecord) => schedule.status !== 'cancelled' && schedule.status !== 'completed';

function show(ctx: OpenContext, schedule: RecurringRecord): Reply {
  const card = ctx.app.store.get(PaymentMethods, schedule.payment_method);
  // What the last post did, read from the state (a cancelled schedule) or from the card-update
  // page's return address (`?payment_method=updated`): a reload shows the same page.
  const notice =
    schedule.status === 'cancelled'
      ? 'Your subscription is cancelled: nothing more will be charged.'
      : ctx.query.payment_method === 'updated'
        ? 'Your new card is saved: the next payments are charged to it.'
        : undefined;
  const body = html`
    <h1>Your subscription</h1>
    ${notice ? html`<p class="alert ok" role="status">${notice}</p>` : ''}
    <p class="amount">${formatMinor(schedule.amount)} ${schedule.currency}</p>
    <table class="receipt">
      <tr><td>Billed</td><td>${everyText(schedule.frequency, schedule.interval_count)}</td></tr>
      <tr><td>Status</td><td data-testid="status">${schedule.status}</td></tr>
      <tr><td>Next payment</td><td>${schedule.next_billing_date === null ? '—' : formatDate(schedule.next_billing_date)}</td></tr>
      <tr><td>Card</td><td data-testid="card">${card ? cardText(card.card_brand, card.card_last) : '—'}</td></tr>
      <tr><td>Reference</td><td>${schedule.reference}</td></tr>
    </table>
    ${
      changeable(schedule)
        ? html`<form method="post" action="${pagePath(ctx.app, `/manage/${schedule.manage_token}/card`)}"><button type="submit">Update card</button></form>
        <form method="post" action="${pagePath(ctx.app, `/manage/${schedule.manage_token}/cancel`)}"><button class="secondary" type="submit">Cancel subscription</button></form>`
        : ''
    }`;
  return { status: 200, html: page('Your subscription', body, schedule.mode) };
}
