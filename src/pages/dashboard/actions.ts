import type { Reply } from '../../http/envelope.js';
import type { OpenContext } from '../../http/route.js';
import { html } from '../html.js';
import { refusal } from './csrf.js';
import { shell } from './layout.js';
import type { DashScope } from './scope.js';

/** The 403 page of a dashboard POST whose token or origin is wrong (nothing was changed), or undefined when it may go on. */
export function refused(ctx: OpenContext, scope: DashScope, action: string, form: Record<string, string>): Reply | undefined {
  const why = refusal(ctx.req, scope, action, form.csrf);
  if (!why) return undefined;
  return shell(
    ctx.app,
    scope,
    'Refused',
    '',
    html`<h1>Refused</h1><p class="alert" role="alert" data-testid="refused">${why} Nothing was changed.</p><p>Go back, reload the page and send the form again.</p>`,
    403,
  );
}
