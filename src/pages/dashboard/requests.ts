import { HttpError } from '../../http/errors.js';
import { parseRequestFilter } from '../../http/request-journal.js';
import type { OpenContext } from '../../http/route.js';
import { html } from '../html.js';
import { httpBadge } from './badges.js';
import { cell, num, shell, table } from './layout.js';
import { href, param, scopeFromQuery, scopeFields } from './scope.js';

/** The request journal of the Source and mode: its `/v1` requests newest first, filtered by method, path (`*`, `**`) and status (`422`, `4xx`). */
export function requestsPage(ctx: OpenContext) {
  const scope = scopeFromQuery(ctx);
  const input = { method: param(ctx, 'method'), path: param(ctx, 'path'), status: param(ctx, 'status') };
  let problem = '';
  let list = { requests: [] as ReturnType<typeof ctx.app.requestJournal.list>['requests'], total: 0 };
  try {
    list = ctx.app.requestJournal.list(scope.source.slug, scope.mode, parseRequestFilter({ ...input, limit: '200' }));
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    problem = error.detail;
  }
  const rows = list.requests.map(
    (
      r,
    ) => html`<tr><td>${r.at.slice(0, 19).replace('T', ' ')}</td><td>${r.method}</td><td><code>${r.path}</code></td><td data-testid="status">${httpBadge(r.status)}</td>
      <td class="num">${r.duration_ms} ms</td><td>${cell(r.idempotency_key)}${r.replayed ? ' (replayed)' : ''}</td><td>${cell(r.fault)}</td>
      <td class="wrap"><details><summary>bodies</summary><pre>${JSON.stringify({ request: r.request_body, response: r.response_body }, null, 2)}</pre></details></td></tr>`,
  );
  const body = html`<h1>Requests</h1>
    <form class="filters" method="get" action="/_payemu/dashboard/requests" aria-label="Filter requests">
      ${scopeFields(scope)}
      <label>Method <input name="method" size="7" value="${input.method}" placeholder="POST"></label>
      <label>Path <input name="path" value="${input.path}" placeholder="/v1/payments/*"></label>
      <label>Status <input name="status" size="5" value="${input.status}" placeholder="4xx"></label>
      <button type="submit">Filter</button>
    </form>
    ${problem ? html`<p class="alert" role="alert" data-testid="filter-problem">${problem}</p>` : ''}
    <p class="muted" data-testid="total">${list.total} request${list.total === 1 ? '' : 's'}${list.total > list.requests.length ? ` (the newest ${list.requests.length} shown)` : ''}. <a href="${href(scope, '/requests')}">All</a></p>
    ${table('requests', 'Requests', ['When', 'Method', 'Path', 'Status', num('Time'), 'Idempotency key', 'Fault', 'Bodies'], rows, 'No requests match.')}`;
  return shell(ctx.app, scope, 'Requests', '/requests', body);
}
