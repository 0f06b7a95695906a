import type { OpenContext } from '../../http/route.js';
import { Recurring } from '../../resources/recurring/records.js';
import { html } from '../html.js';
import { day, money, when } from './format.js';
import { cell, shell, table } from './layout.js';
import { newestFirst, scopeFromQuery } from './scope.js';

/** Recurring schedules, newest first, with when each bills next. */
export function schedulesPage(ctx: OpenContext) {
  const scope = scopeFromQuery(ctx);
  const rows = newestFirst(ctx.app, scope, Recurring).map(
    (
      r,
    ) => html`<tr><td>${r.reference}</td><td>${money(r.amount, r.currency)}</td><td>every ${r.interval_count > 1 ? `${r.interval_count} ` : ''}${r.frequency}</td>
        <td data-testid="status">${r.status}</td><td data-testid="next-billing">${day(r.next_billing_date)}</td><td>${r.sequence}</td><td>${cell(r.customer_email)}</td><td>${when(r.created_at)}</td></tr>`,
  );
  const body = html`<h1>Schedules</h1>${table('schedules', ['Reference', 'Amount', 'Frequency', 'Status', 'Next billing', 'Charges', 'Customer', 'Created'], rows, 'No recurring schedules.')}`;
  return shell(ctx.app, scope, 'Schedules', '/schedules', body);
}
