import { readForm } from '../../http/body.js';
import { Faults, faultsOf, newFault } from '../../http/faults.js';
import type { OpenContext } from '../../http/route.js';
import { FAULT_METHODS, type FaultInput, MAX_LATENCY_MS, faultProblem, faultSchema, withDefaults } from '../../lib/faults.js';
import { html } from '../html.js';
import { redirect } from '../card-form.js';
import { refused } from './actions.js';
import { csrfToken } from './csrf.js';
import { httpBadge } from './badges.js';
import { num, shell, table } from './layout.js';
import { type DashScope, href, param, scopeFromQuery, scopeOf } from './scope.js';
import { chaosSection, setChaosAction } from './webhook-chaos.js';

type Form = Record<string, string>;

/** The faults of the Source and mode (as `GET /_payemu/faults`), each with Remove; Clear all; the add form. */
export function faultsPage(ctx: OpenContext) {
  return render(ctx, scopeFromQuery(ctx), {}, undefined);
}

/** A refused webhook chaos form: the faults page with the form's values and what is wrong (422). */
interface ChaosRefusal {
  form: Form;
  problem: string;
}

function render(ctx: OpenContext, scope: DashScope, form: Form, problem: string | undefined, chaos?: ChaosRefusal) {
  const faults = faultsOf(ctx.app.store, scope.source.slug, scope.mode);
  const notice = param(ctx, 'notice');
  const rows = faults.map(
    (f) => html`<tr><td class="id">${f.id}</td><td>${f.method ?? 'any'}</td><td><code>${f.path}</code></td>
      <td>${f.drop ? 'drop' : httpBadge(f.status)}${f.apply ? ' (applied)' : ''}</td><td class="num">${f.latency_ms} ms</td><td class="num">${f.probability}</td><td class="num">${f.hits}${f.times === null ? '' : ` of ${f.times}`}</td><td class="num">${f.seed}</td>
      <td><form method="post" action="${href(scope, `/faults/${encodeURIComponent(f.id)}/remove`)}"><input type="hidden" name="csrf" value="${csrfToken(scope, 'fault-remove')}"><button type="submit" class="danger" aria-label="Remove ${f.id}">Remove</button></form></td></tr>`,
  );
  const checked = (name: string) => (form[name] ? html` checked` : '');
  const body = html`<h1>Faults and chaos</h1>
    <p class="muted">Matching <code>/v1</code> requests of ${scope.source.slug} ${scope.mode} get the fault's answer, wait, or are dropped; oldest fault first.</p>
    ${notice ? html`<p class="alert ok" role="status" data-testid="notice">${notice}</p>` : ''}
    ${table('faults', 'Faults', ['Id', 'Method', 'Path', 'Answer', num('Latency'), num('Probability'), num('Hits'), num('Seed'), ''], rows, 'No faults: requests are answered as usual.')}
    ${
      faults.length > 0
        ? html`<form method="post" action="${href(scope, '/faults/clear')}"><input type="hidden" name="csrf" value="${csrfToken(scope, 'fault-clear')}"><button type="submit" class="danger">Clear all faults</button></form>`
        : ''
    }
    <h2>Add a fault</h2>
    ${problem ? html`<p class="alert" role="alert" data-testid="problem">${problem}</p>` : ''}
    <form class="filters" method="post" action="${href(scope, '/faults')}" aria-label="Add a fault">
      <input type="hidden" name="csrf" value="${csrfToken(scope, 'fault-add')}">
      <label>Method <select name="method"><option value="">any</option>${FAULT_METHODS.map((m) => html`<option${form.method === m ? html` selected` : ''}>${m}</option>`)}</select></label>
      <label>Path <input name="path" value="${form.path ?? ''}" placeholder="/v1/payments/*/refunds" required></label>
      <label>Status <input name="status" size="5" value="${form.status ?? ''}" placeholder="503"></label>
      <label>Latency (ms) <input name="latency_ms" size="7" value="${form.latency_ms ?? ''}"></label>
      <label>Probability <input name="probability" size="5" value="${form.probability ?? ''}" placeholder="1"></label>
      <label>Times <input name="times" size="5" value="${form.times ?? ''}"></label>
      <label>Seed <input name="seed" size="6" value="${form.seed ?? ''}" placeholder="1"></label>
      <label class="check"><input type="checkbox" name="drop" value="1"${checked('drop')}> drop</label>
      <label class="check"><input type="checkbox" name="apply" value="1"${checked('apply')}> apply</label>
      <button type="submit">Add fault</button>
    </form>
    ${chaosSection(ctx, scope, chaos?.form, chaos?.problem)}`;
  return shell(ctx.app, scope, 'Faults', '/faults', body, problem || chaos ? 422 : 200);
}

/** The form as a fault, or what is wrong with it (the rules of `POST /_payemu/faults`). */
function parse(form: Form): FaultInput | string {
  const path = form.path?.trim() ?? '';
  if (path.length > faultSchema.properties.path.maxLength || !new RegExp(faultSchema.properties.path.pattern).test(path))
    return 'The path must start with /v1/ (a glob: * one segment, ** the rest), without query or spaces.';
  const input: FaultInput = { path, drop: form.drop === '1', apply: form.apply === '1' };
  const method = form.method ?? '';
  if (method) {
    if (!(FAULT_METHODS as readonly string[]).includes(method)) return 'The method must be one of GET, POST, PATCH, PUT, DELETE.';
    input.method = method as FaultInput['method'];
  }
  const number = (name: string, min: number, max: number, integer: boolean): number | string | undefined => {
    const text = form[name]?.trim() ?? '';
    if (text === '') return undefined;
    const n = Number(text);
    if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n)))
      return `${name} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}.`;
    return n;
  };
  const fields = [
    ['status', 400, 599, true],
    ['latency_ms', 0, MAX_LATENCY_MS, true],
    ['probability', 0, 1, false],
    ['times', 1, 1_000_000_000, true],
    ['seed', 0, 4_294_967_295, true],
  ] as const;
  for (const [name, min, max, integer] of fields) {
    const value = number(name, min, max, integer);
    if (typeof value === 'string') return value;
    if (value !== undefined) (input as Record<string, unknown>)[name] = value;
  }
  const problem = faultProblem(input);
  return problem ? problem[1] : input;
}

export async function addFaultAction(ctx: OpenContext) {
  const form = await readForm(ctx.req);
  const scope = scopeOf(ctx.app, ctx.query);
  const refusal = refused(ctx, scope, 'fault-add', form);
  if (refusal) return refusal;
  const input = parse(form);
  if (typeof input === 'string') return render(ctx, scope, form, input);
  const fault = ctx.app.store.transaction((tx) => tx.put(Faults, newFault(withDefaults(input), { source: scope.source.slug, mode: scope.mode }, ctx.now)));
  return redirect(href(scope, '/faults', { notice: `Added ${fault.id}.` }));
}

export async function removeFaultAction(ctx: OpenContext) {
  const form = await readForm(ctx.req);
  const scope = scopeOf(ctx.app, ctx.query);
  const refusal = refused(ctx, scope, 'fault-remove', form);
  if (refusal) return refusal;
  const fault = ctx.app.store.get(Faults, ctx.params.id!);
  const mine = fault && fault.source === scope.source.slug && fault.mode === scope.mode;
  if (mine) ctx.app.store.transaction((tx) => tx.delete(Faults, fault.id));
  return redirect(href(scope, '/faults', { notice: mine ? `Removed ${fault.id}.` : `No fault ${ctx.params.id} (already retired or removed).` }));
}

export async function clearFaultsAction(ctx: OpenContext) {
  const form = await readForm(ctx.req);
  const scope = scopeOf(ctx.app, ctx.query);
  const refusal = refused(ctx, scope, 'fault-clear', form);
  if (refusal) return refusal;
  const faults = faultsOf(ctx.app.store, scope.source.slug, scope.mode);
  ctx.app.store.transaction((tx) => {
    for (const fault of faults) tx.delete(Faults, fault.id);
  });
  return redirect(href(scope, '/faults', { notice: `Removed ${faults.length} fault${faults.length === 1 ? '' : 's'}.` }));
}

/** Sets the webhook chaos from the faults page's form; a refused value shows the page again with it. */
export function setChaosFromFaultsPage(ctx: OpenContext) {
  return setChaosAction(ctx, (scope, form, problem) => render(ctx, scope, {}, undefined, { form, problem }));
}
