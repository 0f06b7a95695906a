import { readForm } from '../../http/body.js';
import type { OpenContext } from '../../http/route.js';
import { type Attempt, Events, attemptState, attemptsOf, eventBody, eventReference } from '../../webhooks/records.js';
import { html } from '../html.js';
import { redirect } from '../card-form.js';
import { refused } from './actions.js';
import { csrfToken } from './csrf.js';
import { when } from './format.js';
import { badge, httpBadge } from './badges.js';
import { cell, num, shell, table } from './layout.js';
import { referenceLink } from './links.js';
import { recordNotFound, scopedRecord } from './record.js';
import { type DashScope, href, param, scopeFromQuery, scopeOf } from './scope.js';

export const ATTEMPT_COLUMNS = ['When', 'URL', 'Status', num('Time'), 'Answer or error'];

export const attemptRows = (attempts: readonly Attempt[]) =>
  [...attempts]
    .reverse()
    .map(
      (a) =>
        html`<tr><td>${when(a.at)}</td><td><code>${a.url}</code></td><td>${httpBadge(a.status)} ${badge(attemptState(a))}${a.chaos ? html` <code data-testid="chaos">chaos: ${a.chaos}</code>` : ''}</td><td class="num">${a.duration_ms} ms</td><td class="wrap"><code>${cell(a.error ?? a.response_body)}</code></td></tr>`,
    );

const findEvent = (ctx: OpenContext, scope: DashScope) => scopedRecord(ctx.app, scope, Events, ctx.params.id!);
const notFound = (ctx: OpenContext, scope: DashScope) => recordNotFound(ctx.app, scope, 'event', '/events', ctx.params.id!);

/** One event: payload, delivery attempts (newest first) and the Resend button. */
export function eventPage(ctx: OpenContext) {
  const scope = scopeFromQuery(ctx);
  const event = findEvent(ctx, scope);
  if (!event) return notFound(ctx, scope);
  const notice = param(ctx, 'notice');
  const body = html`<div class="heading"><h1>${event.event}</h1>${badge(event.delivery_status)}</div>
    ${notice ? html`<p class="alert ${notice === 'resent' ? 'ok' : ''}" role="status" data-testid="notice">${notice === 'resent' ? 'Sent again: a new cycle of delivery attempts has started.' : 'A delivery attempt is in progress; resend once it has finished.'}</p>` : ''}
    <dl><dt>Id</dt><dd><code>${event.id}</code></dd><dt>Created</dt><dd>${when(event.created_at)}</dd><dt>Reference</dt><dd>${referenceLink(ctx.app, scope, eventReference(event))}</dd>
      <dt>Delivery</dt><dd data-testid="delivery-status">${badge(event.delivery_status)}</dd><dt>Next attempt</dt><dd>${when(event.next_attempt_at)}</dd></dl>
    <form class="actions" method="post" action="${href(scope, `/events/${encodeURIComponent(event.id)}/resend`)}">
      <input type="hidden" name="csrf" value="${csrfToken(scope, 'resend')}"><button type="submit">Resend</button>
    </form>
    <h2>Delivery attempts</h2>
    ${table('attempts', 'Delivery attempts', ATTEMPT_COLUMNS, attemptRows(attemptsOf(event)), 'No delivery attempts yet.')}
    <h2>Payload</h2>
    <pre data-testid="payload">${JSON.stringify(eventBody(event), null, 2)}</pre>`;
  return shell(ctx.app, scope, event.event, '/events', body);
}

/** Resend, as `POST /_payemu/events/{id}/resend` does: a new cycle of attempts (not while one is in flight). */
export async function resendAction(ctx: OpenContext) {
  const form = await readForm(ctx.req);
  const scope = scopeOf(ctx.app, ctx.query);
  const refusal = refused(ctx, scope, 'resend', form);
  if (refusal) return refusal;
  const event = findEvent(ctx, scope);
  if (!event) return notFound(ctx, scope);
  const inFlight = ctx.app.webhooks.isInFlight(event.id);
  if (!inFlight) ctx.app.webhooks.resend(event.id);
  return redirect(href(scope, `/events/${encodeURIComponent(event.id)}`, { notice: inFlight ? 'in-flight' : 'resent' }));
}
