import type { App } from '../../app.js';
import { formatTimestamp, parseTimestamp } from '../../clock/format.js';
import type { RunReport } from '../../clock/scheduler.js';
import { MAX_ADVANCE_DAYS, advanceClock, advanceSpan } from '../../control/clock.js';
import { readForm } from '../../http/body.js';
import type { OpenContext } from '../../http/route.js';
import { html } from '../html.js';
import { redirect } from '../card-form.js';
import { refused } from './actions.js';
import { csrfToken } from './csrf.js';
import { longDate, offsetText } from './format.js';
import { shell, table } from './layout.js';
import { recordLink } from './links.js';
import { type DashScope, href, param, scopeFromQuery, scopeOf } from './scope.js';

interface Advanced {
  from: number;
  report: RunReport & { now: number };
}

/** The last few advances of each emulator, so the page the POST redirects to can show what ran. */
const reports = new WeakMap<App, Map<string, Advanced>>();
let nextReport = 1;

function keep(app: App, advanced: Advanced): string {
  const mine = reports.get(app) ?? new Map<string, Advanced>();
  reports.set(app, mine);
  const id = String(nextReport++);
  mine.set(id, advanced);
  for (const old of mine.keys()) if (mine.size > 10) mine.delete(old);
  return id;
}

/** The clock, the advance form, and (after an advance) what ran. */
export function clockPage(ctx: OpenContext) {
  return render(ctx.app, scopeFromQuery(ctx), reports.get(ctx.app)?.get(param(ctx, 'report')), {});
}

function render(app: App, scope: DashScope, advanced: Advanced | undefined, form: { by?: string; to?: string; problem?: string }) {
  const ran = advanced ? Object.entries(advanced.report.ran) : [];
  const body = html`<h1>Clock</h1>
    ${clockFacts(app)}
    <p class="muted">${whose(scope)}</p>
    <h2>Advance</h2>
    ${form.problem ? html`<p class="alert" role="alert" data-testid="problem">${form.problem}</p>` : ''}
    <form class="filters" method="post" action="${href(scope, '/clock/advance')}" aria-label="Advance the clock">
      <input type="hidden" name="csrf" value="${csrfToken(scope, 'advance')}">
      <label>By (30d, 12h, 90m, seconds) <input name="by" value="${form.by ?? ''}" placeholder="30d"></label>
      <label>or to (timestamp) <input name="to" value="${form.to ?? ''}" placeholder="2030-01-01T00:00:00Z"></label>
      <button type="submit">Advance</button>
    </form>
    ${
      advanced
        ? html`<h2>What ran</h2><p role="status" data-testid="advanced">Moved from ${formatTimestamp(advanced.from)} to ${formatTimestamp(advanced.report.now)}: ${
            ran.length === 0 ? 'nothing fell due.' : ran.map(([kind, n], i) => html`${i > 0 ? ', ' : ''}${n} ${kind}`)
          }</p>
          ${table(
            'ran',
            'What ran',
            ['At', 'Kind', 'Id'],
            advanced.report.items.map((item) => html`<tr><td>${item.at}</td><td>${item.kind}</td><td>${recordLink(app, scope, item.id)}</td></tr>`),
            'No work ran.',
          )}`
        : ''
    }`;
  return shell(app, scope, 'Clock', '/clock', body, form.problem ? 422 : 200);
}

/** Whose clock the page advances: the emulator's, or a named namespace's own. */
function whose(scope: DashScope): string {
  if (scope.namespace === undefined) return 'One clock for the whole emulator: an advance runs the due work of every Source and mode.';
  return `The clock of namespace ~${scope.namespace}: an advance runs the due work of its every Source and mode, and no other namespace's.`;
}

/** The clock as a date and an offset from real time (the timestamp beside them, as the API writes it), and whether it is frozen. */
export function clockFacts(app: App) {
  const now = app.clock.now();
  const offset = offsetText(app.clock.offsetMs());
  return html`<dl data-testid="clock"><dt>Now</dt><dd data-testid="now">${longDate(now)}<span class="sub"><code>${formatTimestamp(now)}</code></span></dd>
      <dt>Offset</dt><dd data-testid="offset">${offset}${offset.startsWith('none') ? '' : html` <span class="muted">from real time</span>`}</dd><dt>Frozen</dt><dd>${app.clock.frozen() ? 'yes' : 'no'}</dd></dl>`;
}

/** Advances the clock by a duration or to a timestamp (as `POST /_payemu/clock/advance`), then shows what ran. */
export async function advanceAction(ctx: OpenContext) {
  const form = await readForm(ctx.req);
  const scope = scopeOf(ctx.app, ctx.query);
  const refusal = refused(ctx, scope, 'advance', form);
  if (refusal) return refusal;
  const by = form.by?.trim() ?? '';
  const to = form.to?.trim() ?? '';
  const problem = (text: string) => render(ctx.app, scope, undefined, { by, to, problem: text });
  if (!by === !to) return problem('Give either a duration (by) or a timestamp (to).');
  let target: (now: number) => number;
  if (by) {
    const ms = advanceSpan(/^\d+$/.test(by) ? Number(by) : by);
    if (typeof ms === 'string') return problem(`The duration ${ms}.`);
    target = (from) => from + ms;
  } else {
    const at = parseTimestamp(to);
    if (at === undefined) return problem('The timestamp must be ISO 8601, such as 2030-01-01T00:00:00Z.');
    if (at < ctx.now) return problem('The clock only moves forward: the timestamp must not be in the past.');
    if (at - ctx.now > MAX_ADVANCE_DAYS * 86_400_000) return problem(`One advance moves at most ${MAX_ADVANCE_DAYS} days (ten years).`);
    target = (from) => Math.max(from, at);
  }
  const from = ctx.app.clock.now();
  const report = await advanceClock(ctx.app, target);
  return redirect(href(scope, '/clock', { report: keep(ctx.app, { from, report }) }));
}
