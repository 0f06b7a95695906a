import type { ServerResponse } from 'node:http';
import type { Reply } from '../../http/envelope.js';
import { PAGE_HEADERS, html, type Raw } from '../html.js';
import { BASE, href, type DashScope } from './scope.js';
import type { App } from '../../app.js';

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
 * A dashboard page: the nav bar, the Source and mode switcher (a plain GET form), the body, and
 * the live-refresh script (served by payemu, so the CSP lets it run; the page works without it).
 * The body carries the event stream's address with the chosen Source's key: the dashboard shows
 * the keys to the person at this machine anyway.
 */
export function shell(app: App, scope: DashScope, title: string, active: string, body: Raw, status = 200): Reply {
  const key = scope.mode === 'live' ? scope.source.live_key : scope.source.test_key;
  const stream = `/_payemu/events/stream?key=${encodeURIComponent(key)}`;
  const sources = app.config().sources;
  const doc = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · payemu dashboard</title><link rel="stylesheet" href="${BASE}/assets/style.css"><script src="${BASE}/assets/live.js" defer></script></head>
<body data-stream="${stream}" data-mode="${scope.mode}">
<header>
  <a class="brand" href="${href(scope)}">payemu</a>
  <nav aria-label="Dashboard">${NAV.map(([path, label]) => html`<a href="${href(scope, path)}"${path === active ? html` aria-current="page"` : ''}>${label}</a>`)}</nav>
  <form class="switcher" method="get" action="${BASE}${active}" aria-label="Source and mode">
    <label>Source <select name="source">${sources.map((s) => html`<option value="${s.slug}"${s.slug === scope.source.slug ? html` selected` : ''}>${s.name} (${s.slug})</option>`)}</select></label>
    <label>Mode <select name="mode"><option value="test"${scope.mode === 'test' ? html` selected` : ''}>test</option><option value="live"${scope.mode === 'live' ? html` selected` : ''}>live</option></select></label>
    <button type="submit">Show</button>
  </form>
</header>
<p id="live-notice" class="notice" role="status" hidden>New events — <a href="">refresh</a></p>
<main><span class="badge ${scope.mode}">${scope.source.name} · ${scope.mode} mode</span>${body}</main>
</body></html>`;
  return { status, html: doc.value, headers: HEADERS };
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

/** A table with a caption; each row is a list of cells already rendered. */
export function table(label: string, head: readonly string[], rows: readonly Raw[], empty: string): Raw {
  if (rows.length === 0) return html`<p class="muted" data-testid="${label}-empty">${empty}</p>`;
  return html`<div class="scroll"><table data-testid="${label}"><thead><tr>${head.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

export const STYLE = `*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:#f4f5f7;color:#1f2430}
header{background:#1f2430;color:#fff;padding:8px 16px;display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center}
header a{color:#dfe4ff;text-decoration:none} .brand{font-weight:700;color:#fff!important;font-size:17px}
nav{display:flex;flex-wrap:wrap;gap:4px 12px;flex:1 1 auto} nav a[aria-current=page]{color:#fff;border-bottom:2px solid #7c9cff}
.switcher{display:flex;flex-wrap:wrap;gap:6px;align-items:center;font-size:13px} .switcher select,.switcher button{font:inherit;padding:2px 6px}
main{max-width:1200px;margin:16px auto;padding:0 16px}
h1{font-size:22px;margin:8px 0} h2{font-size:17px;margin:20px 0 8px}
.badge{display:inline-block;font-size:12px;font-weight:600;padding:2px 8px;border-radius:999px;background:#fff4d6;color:#8a5a00}
.badge.live{background:#ffe1e1;color:#a40000}
.scroll{overflow-x:auto;max-width:100%} table{border-collapse:collapse;width:100%;background:#fff;font-size:14px}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e3e6ec;vertical-align:top} th{background:#eef0f5;font-weight:600}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;background:#fff;padding:12px;margin:0} dt{color:#5b6275} dd{margin:0;overflow-wrap:anywhere}
code,pre{font:13px ui-monospace,SFMono-Regular,Menlo,monospace} pre{background:#fff;padding:12px;overflow-x:auto;max-width:100%;white-space:pre-wrap;overflow-wrap:anywhere}
form.filters{display:flex;flex-wrap:wrap;gap:8px;align-items:end;margin:8px 0} form.filters label{display:flex;flex-direction:column;font-size:13px}
input,select,button{font:inherit} input,select{padding:4px 6px;max-width:100%}
button{padding:5px 12px;border:0;border-radius:6px;background:#3b5bdb;color:#fff;cursor:pointer} button.danger{background:#c62828}
.muted{color:#5b6275} .notice{margin:0;padding:8px 16px;background:#fff4d6;text-align:center}
.alert{padding:10px;border-radius:6px;background:#fdecea;color:#8e1c1c} .ok{background:#e6f4ea;color:#1e6b34}
.pager{display:flex;gap:16px;margin:8px 0} td{overflow-wrap:anywhere}
@media (max-width:600px){th,td{padding:4px;font-size:13px} dl{grid-template-columns:1fr} dt{font-weight:600}}`;

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
