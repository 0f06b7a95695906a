import type { OpenContext } from '../../http/route.js';
import { Payments } from '../../resources/common/payment-records.js';
import { Recurring, recurringId } from '../../resources/recurring/records.js';
import { html } from '../html.js';
import { badge } from './badges.js';
import { cadence, day, money, when } from './format.js';
import { cell, num, shell, table } from './layout.js';
import { paymentHref } from './links.js';
import { recordEventsTable } from './events.js';
import { eventsFor, recordNotFound } from './record.js';
import { newestFirst, scopeFromQuery } from './scope.js';

/** One recurring schedule: its terms, its charges (each a payment) and the events raised for it. */
export function schedulePage(ctx: OpenContext) {
  const { app } = ctx;
  const scope = scopeFromQuery(ctx);
  const reference = ctx.params.reference!;
  const r = app.store.get(Recurring, recurringId(scope.source.slug, scope.mode, reference));
  if (!r) return recordNotFound(app, scope, 'schedule', '/schedules', reference);
  const charges = newestFirst(app, scope, Payments).filter((p) => p.recurring_reference === r.reference);
  const events = eventsFor(app, scope, r.reference);
  const body = html`<div class="heading"><h1>Schedule ${r.reference}</h1>${badge(r.status)}</div>
    <dl data-testid="schedule">
      <dt>Amount</dt><dd>${money(r.amount, r.currency)} ${cadence(r.frequency, r.interval_count)}</dd>
      <dt>Status</dt><dd data-testid="status">${badge(r.status)}</dd>
      <dt>Next billing</dt><dd>${day(r.next_billing_date)}</dd><dt>Start</dt><dd>${day(r.start_date)}</dd><dt>End</dt><dd>${day(r.end_date)}</dd>
      <dt>Retries</dt><dd>${r.retry_count}</dd><dt>Customer</dt><dd>${cell(r.customer_email)}</dd>
      <dt>Payment method</dt><dd><code>${r.payment_method}</code></dd><dt>Created</dt><dd>${when(r.created_at)}</dd>
    </dl>
    <h2>Charges</h2>
    ${table(
      'charges',
      'Charges',
      ['Reference', num('Amount'), 'Status', 'Failure', 'Created'],
      charges.map(
        (p) =>
          html`<tr><td><a class="id" href="${paymentHref(scope, p.id)}">${p.reference}</a></td><td class="num">${money(p.amount, p.currency)}</td><td>${badge(p.status)}</td><td>${cell(p.failure_code)}</td><td>${when(p.created_at)}</td></tr>`,
      ),
      'No charges yet.',
    )}
    <h2>Events</h2>
    ${recordEventsTable(scope, 'schedule-events', 'Events of this schedule', events)}`;
  return shell(app, scope, `Schedule ${r.reference}`, '/schedules', body);
}
