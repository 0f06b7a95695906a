import type { OpenContext } from '../../http/route.js';
import { Recurring } from '../../resources/recurring/records.js';
import { html } from '../html.js';
import { cadence, day, money, when } from './format.js';
import { badge } from './badges.js';
import { cell, num, shell, table } from './layout.js';
import { scheduleHref } from './links.js';
import { newestFirst, scopeFromQuery } from './scope.js';

/** Recurring schedules, newest first, with when each bills next. */
export function schedulesPage(ctx: OpenContext) {
  const scope = scopeFromQuery(ctx);
  const rows = newestFirst(ctx.app, scope, Recurring).map(
    (
      r,
    ) => html`<tr><td><a class="id" href="${scheduleHref(scope, r.reference)}">${r.reference}</a></td><td class="num">${money(r.amount, r.currency)}</td><td>${cadence(r.frequency, r.interval_count)}</td>
        <td data-testid="status">${badge(r.status)}</td><td data-testid="next-billing">${day(r.next_billing_date)}</td><td class="num">${r.sequence - 1}</td><td>${cell(r.customer_email)}</td><td>${when(r.created_at)}</td></tr>`,
  );
  const body = html`<h1>Schedules</h1>${table('schedules', 'Recurring schedules', ['Reference', num('Amount'), 'Frequency', 'Status', 'Next billing', num('Charges'), 'Customer', 'Created'], rows, 'No recurring schedules.')}`;
  return shell(ctx.app, scope, 'Schedules', '/schedules', body);
}
