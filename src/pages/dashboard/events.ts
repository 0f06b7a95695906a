import type { OpenContext } from '../../http/route.js';
import { Events, attemptsOf, eventReference, type EventRecord } from '../../webhooks/records.js';
import { html, type Raw } from '../html.js';
import { pageOf, when } from './format.js';
import { badge } from './badges.js';
import { num, shell, table } from './layout.js';
import { referenceLink } from './links.js';
import { type DashScope, href, newestFirst, param, scopeFromQuery, scopeFields } from './scope.js';

const STATUSES = ['pending', 'retrying', 'delivered', 'failed', 'no_endpoint'];

/** Events of the Source and mode, newest first, with their delivery status, 50 a page. */
export function eventsPage(ctx: OpenContext) {
  const scope = scopeFromQuery(ctx);
  const status = param(ctx, 'delivery_status');
  const all = newestFirst(ctx.app, scope, Events).filter((e) => !status || e.delivery_status === status);
  const { items, page, pages } = pageOf(all, param(ctx, 'page'), 50);
  const rows = items.map(
    (
      e,
    ) => html`<tr><td><a href="${href(scope, `/events/${encodeURIComponent(e.id)}`)}">${e.event}</a></td><td><a class="id" href="${href(scope, `/events/${encodeURIComponent(e.id)}`)}">${e.id}</a></td><td>${referenceLink(ctx.app, scope, eventReference(e))}</td>
      <td data-testid="delivery-status">${badge(e.delivery_status)}</td><td class="num">${attemptsOf(e).length}</td><td>${when(e.created_at)}</td></tr>`,
  );
  const body = html`<h1>Events</h1>
    <form class="filters" method="get" action="/_payemu/dashboard/events" aria-label="Filter events">
      ${scopeFields(scope)}
      <label>Delivery <select name="delivery_status"><option value="">any</option>${STATUSES.map((s) => html`<option${s === status ? html` selected` : ''}>${s}</option>`)}</select></label>
      <button type="submit">Filter</button>
    </form>
    ${table('events', 'Events', ['Event', 'Id', 'Reference', 'Delivery', num('Attempts'), 'Created'], rows, 'No events yet.')}
    ${pages > 1 ? html`<p class="pager">${page > 1 ? html`<a href="${href(scope, '/events', { delivery_status: status, page: page - 1 })}">Newer</a>` : ''}<span>Page ${page} of ${pages}</span>${page < pages ? html`<a href="${href(scope, '/events', { delivery_status: status, page: page + 1 })}">Older</a>` : ''}</p>` : ''}`;
  return shell(ctx.app, scope, 'Events', '/events', body);
}

/** The events raised for one record (an invoice, a schedule), newest first: each links to its page. */
export function recordEventsTable(scope: DashScope, name: string, label: string, events: readonly EventRecord[]): Raw {
  return table(
    name,
    label,
    ['Event', 'Delivery', 'Created'],
    events.map(
      (e) =>
        html`<tr><td><a href="${href(scope, `/events/${encodeURIComponent(e.id)}`)}">${e.event}</a></td><td>${badge(e.delivery_status)}</td><td>${when(e.created_at)}</td></tr>`,
    ),
    'No events.',
  );
}
