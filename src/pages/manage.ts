import { formatDate } from '../clock/format.js';
import { readForm } from '../http/body.js';
import type { Reply } from '../http/envelope.js';
import type { OpenContext } from '../http/route.js';
import { formatMinor } from '../lib/money.js';
import { Recurring, type RecurringRecord } from '../resources/recurring/records.js';
import { cancelRecurring } from '../resources/recurring/service.js';
import { html, page, pageRoute } from './html.js';

/** A schedule's `manage_url`: the customer sees the schedule and can cancel it. */
export const managePages = [
  pageRoute({ method: 'GET', path: '/manage/:token', handle: (ctx) => withSchedule(ctx, (schedule) => show(schedule)) }),
  pageRoute({
    method: 'POST',
    path: '/manage/:token/cancel',
    handle: (ctx) =>
      withSchedule(ctx, async (schedule) => {
        await readForm(ctx.req);
        if (schedule.status === 'cancelled') return show(schedule);
        const scope = { source: ctx.app.config().sources.find((s) => s.slug === schedule.source)!, mode: schedule.mode };
        const cancelled = ctx.app.store.transaction((tx) => cancelRecurring(tx, scope, schedule.reference, ctx.now));
        return show(cancelled, 'Your subscription is cancelled: nothing more will be charged.');
      }),
  }),
];

function withSchedule(ctx: OpenContext, render: (schedule: RecurringRecord) => Reply | Promise<Reply>): Reply | Promise<Reply> {
  const schedule = ctx.app.store.find(Recurring, 'manage', ctx.params.token!)[0];
  if (!schedule) return { status: 404, html: page('Not found', html`<h1>Page not found</h1><p>There is no subscription at this address.</p>`) };
  return render(schedule);
}

function show(schedule: RecurringRecord, notice?: string): Reply {
  const every = schedule.interval_count === 1 ? schedule.frequency : `every ${schedule.interval_count} ${{ daily: 'days', weekly: 'weeks', monthly: 'months', yearly: 'years' }[schedule.frequency]}`;
  const body = html`
    <h1>Your subscription</h1>
    ${notice ? html`<p class="alert ok" role="status">${notice}</p>` : ''}
    <p class="amount">${formatMinor(schedule.amount)} ${schedule.currency}</p>
    <table>
      <tr><td>Billed</td><td>${every}</td></tr>
      <tr><td>Status</td><td data-testid="status">${schedule.status}</td></tr>
      <tr><td>Next payment</td><td>${schedule.next_billing_date === null ? '—' : formatDate(schedule.next_billing_date)}</td></tr>
      <tr><td>Reference</td><td>${schedule.reference}</td></tr>
    </table>
    ${schedule.status === 'cancelled' || schedule.status === 'completed'
      ? ''
      : html`<form method="post" action="/manage/${schedule.manage_token}/cancel"><button class="secondary" type="submit">Cancel subscription</button></form>`}`;
  return { status: 200, html: page('Your subscription', body, schedule.mode) };
}
