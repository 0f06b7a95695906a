import { readForm } from '../../http/body.js';
import type { Reply } from '../../http/envelope.js';
import type { OpenContext } from '../../http/route.js';
import { scopeKey } from '../../lib/scope-key.js';
import { WebhookChaos, type WebhookChaosSettings, checkChaos } from '../../webhooks/chaos.js';
import { html } from '../html.js';
import { redirect } from '../card-form.js';
import { refused } from './actions.js';
import { csrfToken } from './csrf.js';
import { type DashScope, href, scopeOf } from './scope.js';

type Form = Record<string, string>;

/** The fields of `PUT /_payemu/webhook-chaos`, in the order the form shows them. */
const FIELDS = [
  ['duplicate', 'Duplicate', '0.2'],
  ['delay', 'Delay', '5s'],
  ['stale_timestamp', 'Stale timestamp', '0.1'],
  ['bad_signature', 'Bad signature', '0.1'],
  ['seed', 'Seed', '7'],
] as const;

export const chaosOf = (ctx: OpenContext, scope: DashScope): WebhookChaosSettings | undefined =>
  ctx.app.store.get(WebhookChaos, scopeKey(scope.source.slug, scope.mode))?.settings;

/**
 * The webhook chaos section of the faults page: the settings in force (as `GET
 * /_payemu/webhook-chaos`), the form that replaces them (as `PUT`) and Turn off (as `DELETE`).
 * `form` and `problem` are a refused form's values and what is wrong with them.
 */
export function chaosSection(ctx: OpenContext, scope: DashScope, form: Form | undefined, problem: string | undefined) {
  const settings = chaosOf(ctx, scope) ?? {};
  const set = FIELDS.filter(([name]) => settings[name] !== undefined);
  const value = (name: string) => (form ? (form[name] ?? '') : String(settings[name as keyof WebhookChaosSettings] ?? ''));
  return html`<h2 id="webhook-chaos">Webhook chaos</h2>
    <p class="muted">What the first delivery attempts of ${scope.source.slug} ${scope.mode}'s events go through: probabilities from 0 to 1, a delay up to a duration, a seed for the same pattern again.</p>
    ${
      set.length > 0
        ? html`<dl data-testid="webhook-chaos">${set.map(([name, label]) => html`<dt>${label}</dt><dd>${String(settings[name])}</dd>`)}</dl>
          <form method="post" action="${href(scope, '/faults/webhook-chaos/off')}"><input type="hidden" name="csrf" value="${csrfToken(scope, 'chaos-off')}"><button type="submit" class="danger">Turn webhook chaos off</button></form>`
        : html`<p class="muted" data-testid="webhook-chaos-off">Webhook chaos is off: events are delivered as usual.</p>`
    }
    ${problem ? html`<p class="alert" role="alert" data-testid="chaos-problem">${problem}</p>` : ''}
    <form class="filters" method="post" action="${href(scope, '/faults/webhook-chaos')}" aria-label="Set webhook chaos">
      <input type="hidden" name="csrf" value="${csrfToken(scope, 'chaos-set')}">
      ${FIELDS.map(([name, label, example]) => html`<label>${label} <input name="${name}" size="6" value="${value(name)}" placeholder="${example}"></label>`)}
      <button type="submit">Set webhook chaos</button>
    </form>`;
}

/** The form as settings, or what is wrong with it: an empty field is not set; the rest is checked as the control route does. */
function parse(form: Form): WebhookChaosSettings | string {
  const given: Record<string, unknown> = {};
  for (const [name] of FIELDS) {
    const text = form[name]?.trim() ?? '';
    if (text === '') continue;
    given[name] = name === 'delay' || !Number.isFinite(Number(text)) ? text : Number(text);
  }
  const checked = checkChaos(given);
  return 'field' in checked ? checked.message : checked.settings;
}

export async function setChaosAction(ctx: OpenContext, render: (scope: DashScope, form: Form, problem: string) => Reply) {
  const form = await readForm(ctx.req);
  const scope = scopeOf(ctx.app, ctx.query);
  const refusal = refused(ctx, scope, 'chaos-set', form);
  if (refusal) return refusal;
  const settings = parse(form);
  if (typeof settings === 'string') return render(scope, form, settings);
  const id = scopeKey(scope.source.slug, scope.mode);
  ctx.app.store.transaction((tx) => tx.put(WebhookChaos, { id, source: scope.source.slug, mode: scope.mode, settings }));
  return redirect(`${href(scope, '/faults', { notice: 'Webhook chaos set.' })}#webhook-chaos`);
}

export async function chaosOffAction(ctx: OpenContext) {
  const form = await readForm(ctx.req);
  const scope = scopeOf(ctx.app, ctx.query);
  const refusal = refused(ctx, scope, 'chaos-off', form);
  if (refusal) return refusal;
  const id = scopeKey(scope.source.slug, scope.mode);
  if (ctx.app.store.get(WebhookChaos, id)) ctx.app.store.transaction((tx) => tx.delete(WebhookChaos, id));
  return redirect(href(scope, '/faults', { notice: 'Webhook chaos turned off.' }));
}
