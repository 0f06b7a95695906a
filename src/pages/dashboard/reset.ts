import { resetScope } from '../../control/reset.js';
import { readForm } from '../../http/body.js';
import type { OpenContext } from '../../http/route.js';
import { html } from '../html.js';
import { redirect } from '../card-form.js';
import { refused } from './actions.js';
import { csrfToken } from './csrf.js';
import { shell } from './layout.js';
import { href, scopeFromQuery, scopeOf } from './scope.js';

/** Reset asks first: this page says what goes, and its form posts the reset. */
export function resetPage(ctx: OpenContext) {
  const scope = scopeFromQuery(ctx);
  const body = html`<h1>Reset ${scope.source.name}, ${scope.mode} mode${scope.namespace === undefined ? '' : ` of ~${scope.namespace}`}?</h1>
    <section class="card narrow" aria-label="Confirm the reset"><p>This deletes every payment, refund, schedule, invoice, payment link, event, added fault and journaled request of
    <strong>${scope.source.slug}</strong> in <strong>${scope.mode}</strong> mode${scope.namespace === undefined ? '' : html` of namespace <strong>~${scope.namespace}</strong>`}. Other Sources and modes${scope.namespace === undefined ? '' : ', other namespaces'}, the clock, the keys and the config's faults stay.</p>
    <form method="post" action="${href(scope, '/reset')}">
      <input type="hidden" name="csrf" value="${csrfToken(scope, 'reset')}">
      <button type="submit" class="danger">Yes, reset ${scope.source.slug} ${scope.mode}</button>
    </form>
    <p><a href="${href(scope)}">No, go back</a></p></section>`;
  return shell(ctx.app, scope, 'Reset', '/reset', body);
}

export async function resetAction(ctx: OpenContext) {
  const form = await readForm(ctx.req);
  const scope = scopeOf(ctx.app, ctx.query);
  const refusal = refused(ctx, scope, 'reset', form);
  if (refusal) return refusal;
  const { removed } = resetScope(ctx.app, { source: scope.source.slug, mode: scope.mode }, false);
  return redirect(href(scope, '', { reset: removed }));
}
