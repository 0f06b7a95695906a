import type { ServerResponse } from 'node:http';
import type { Reply } from '../../http/envelope.js';
import { PAGE_HEADERS, html, raw, type Raw } from '../html.js';
import { LOGO_PATHS } from '../favicon.js';
import { BASE, href, type DashScope } from './scope.js';
import type { App } from '../../app.js';
import { namespacedKey } from '../../lib/namespace-name.js';

/** The pages of the nav bar: path under the dashboard, label. */
const NAV = [
  ['', 'Overview'],
  ['/payments', 'Payments'],
  ['/schedules', 'Schedules'],
  ['/invoices', 'Invoices'],
  ['/payment-links', 'Payment links'],
  ['/events', 'Events'],
  ['/requests', 'Requests'],
  ['/faults', 'Faults'],
  ['/clock', 'Clock'],
  ['/reset', 'Reset'],
] as const;

/**
 * A dashboard page: the nav bar, the Source, mode and namespace switcher (a plain GET form), the
 * body, and the live-refresh script (served by payemu, so the CSP lets it run; the page works
 * without it). The body carries the event stream's address with the chosen Source's key (and
 * `~NAME` in a named namespace): the dashboard shows the keys to the person at this machine anyway.
 */
export function shell(app: App, scope: DashScope, title: string, active: string, body: Raw, status = 200): Reply {
  const key = namespacedKey(scope.mode === 'live' ? scope.source.live_key : scope.source.test_key, scope.namespace);
  const stream = `/_payemu/events/stream?key=${encodeURIComponent(key)}`;
  const sources = app.config().sources;
  const named = scope.namespace === undefined ? '' : ` · ~${scope.namespace}`;
  const namespaces = namespaceNames(app, scope);
  const doc = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}${named} · payemu dashboard</title><link rel="icon" href="/favicon.ico" type="image/svg+xml"><link rel="stylesheet" href="${BASE}/assets/style.css"><script src="${BASE}/assets/live.js" defer></script></head>
<body data-stream="${stream}" data-mode="${scope.mode}">
<header>
  <div class="bar">
  <a class="brand" href="${href(scope)}"><svg viewBox="0 0 32 32" aria-hidden="true" focusable="false">${raw(LOGO_PATHS)}</svg>payemu</a>
  <span class="scope ${scope.mode}" data-testid="scope">${scope.source.name} · ${scope.mode} mode${named}</span>
  <form class="switcher" method="get" action="${BASE}${active}" aria-label="${namespaces ? 'Source, mode and namespace' : 'Source and mode'}">
    <label><span class="word">Source</span> <select name="source">${sources.map((s) => html`<option value="${s.slug}"${s.slug === scope.source.slug ? html` selected` : ''}>${s.name} (${s.slug})</option>`)}</select></label>
    <label><span class="word">Mode</span> <select name="mode"><option value="test"${scope.mode === 'test' ? html` selected` : ''}>test</option><option value="live"${scope.mode === 'live' ? html` selected` : ''}>live</option></select></label>
    ${namespaces ? namespaceSelect(namespaces, scope.namespace) : ''}
    <button type="submit">Show</button>
  </form>
  </div>
  <nav aria-label="Dashboard">${NAV.map(([path, label]) => html`<a href="${href(scope, path)}"${path === active ? html` aria-current="page"` : ''}>${label}</a>`)}</nav>
</header>
<p id="live-notice" class="notice" role="status" hidden>New events — <a href="">refresh</a></p>
<main>${body}</main>
</body></html>`;
  return { status, html: doc.value, headers: HEADERS };
}

/**
 * The named namespaces the switcher offers, or undefined when there are none (nor is one shown):
 * a payemu without namespaces keeps the switcher it had.
 */
function namespaceNames(app: App, scope: DashScope): string[] | undefined {
  const names = app.namespaces.list().map((n) => n.name);
  if (scope.namespace !== undefined && !names.includes(scope.namespace)) names.push(scope.namespace);
  return names.length === 0 ? undefined : names;
}

/** The namespace select: the default (an empty value, as its key has no suffix) and each named one as its key's suffix. */
function namespaceSelect(names: readonly string[], chosen: string | undefined): Raw {
  return html`<label><span class="word">Namespace</span> <select name="namespace"><option value=""${chosen === undefined ? html` selected` : ''}>default</option>${names.map(
    (name) => html`<option value="${name}"${name === chosen ? html` selected` : ''}>~${name}</option>`,
  )}</select></label>`;
}

/**
 * The hosted pages' headers, but `Referrer-Policy: same-origin`: under `no-referrer` a browser
 * sends `Origin: null` with a form post, and the dashboard's forms must name their origin to be
 * told apart from another site's. Other sites still get no referrer.
 */
const HEADERS = { ...PAGE_HEADERS, 'Referrer-Policy': 'same-origin' };

/** A static asset (stylesheet, script) of the dashboard: written here, since a Reply is JSON or HTML. */
export function asset(res: ServerResponse, type: string, body: string): Reply {
  res.writeHead(200, { 'Content-Type': `${type}; charset=utf-8`, 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
  res.end(body);
  return { status: 200, streamed: true };
}

/** Text for a table cell: a dash for nothing. */
export const cell = (value: unknown) => (value === undefined || value === null || value === '' ? '—' : String(value));

/** A table's column: its heading, and whether it holds numbers (right-aligned, as its cells marked `num`). */
export type Column = string | { label: string; num: true };

/** A column of amounts or counts. */
export const num = (label: string): Column => ({ label, num: true });

/**
 * A table in a box that scrolls sideways when the table is wider than the page (its cells do
 * not wrap): the box is focusable, so a keyboard can scroll it, and named by `name`, as the
 * table is by its caption. `label` is its test id.
 */
export function table(label: string, name: string, head: readonly Column[], rows: readonly Raw[], empty: string): Raw {
  if (rows.length === 0) return html`<p class="muted" data-testid="${label}-empty">${empty}</p>`;
  const th = (c: Column) =>
    typeof c === 'string'
      ? html`<th scope="col">${c || html`<span class="visually-hidden">Action</span>`}</th>`
      : html`<th scope="col" class="num">${c.label}</th>`;
  return html`<div class="scroll" role="region" tabindex="0" aria-label="${name}"><table data-testid="${label}"><caption class="visually-hidden">${name}</caption><thead><tr>${head.map(th)}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

/**
 * Live refresh: listens to the event stream of the page's Source and mode and, on a new event
 * or delivery attempt, shows the "new events — refresh" notice (it never reloads by itself, so
 * a form being filled is never lost).
 */
export const SCRIPT = `(function(){
  var url = document.body.getAttribute('data-stream');
  var notice = document.getElementById('live-notice');
  if (!url || !notice || typeof EventSource === 'undefined') return;
  var source = new EventSource(url);
  var show = function(){ notice.hidden = false; };
  source.addEventListener('event', show);
  source.addEventListener('attempt', show);
  document.body.setAttribute('data-live', 'on');
  source.addEventListener('open', function(){ document.body.setAttribute('data-live', 'connected'); });
})();`;
