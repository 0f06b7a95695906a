import { namespacedKey } from '../../lib/namespace-name.js';
import type { App } from '../../app.js';
import { formatDate } from '../../clock/format.js';
import type { Mode } from '../../config/types.js';
import type { Scope } from '../../http/auth.js';
import { HttpError, Unprocessable } from '../../http/errors.js';
import { type InjectedAnswer, Unanswered } from '../../http/inject.js';
import { PaymentMethods } from '../../resources/payment-methods/records.js';
import { createdKind } from './created.js';
import { loadFixtures, type EffectStep } from './fixtures.js';
import { render } from './template.js';
import { bodyText } from './written.js';

/**
 * The cards the fixtures pay with, `{{cards.approved}}` and so on, by the key's mode. Live mode
 * declines the test cards ("A test card was used in live mode.") and approves any other
 * Luhn-valid Visa, Mastercard or American Express number, so a live trigger pays with such a
 * number, and declines with a test card. No number declines off-session in live mode: there the
 * fixture's next step marks the saved card (see EffectStep).
 */
export const TRIGGER_CARDS: Record<Mode, Record<'approved' | 'approved_mastercard' | 'declined' | 'declines_off_session', string>> = {
  test: {
    approved: '4242424242424242',
    approved_mastercard: '5555555555554444',
    declined: '4000000000000002',
    declines_off_session: '4000000000000341',
  },
  live: {
    approved: '4111111111111111',
    approved_mastercard: '5105105105105100',
    declined: '4000000000000002',
    declines_off_session: '4111111111111111',
  },
};

export interface TriggerResult {
  event: string;
  /** The id of the event the trigger made happen (null if it did not happen). */
  event_id: string | null;
  source: string;
  mode: string;
  steps: { id: string; method: string; path: string; status: number; created: string | null }[];
}

/**
 * Makes `event` happen through real state changes: runs its fixture's API calls against this
 * emulator, in process through its server's pipeline, as the given Source and mode, and names
 * the event that resulted.
 */
export async function runTrigger(app: App, scope: Scope, event: string, data: Record<string, unknown> = {}): Promise<TriggerResult> {
  const { fixtures, defaults } = loadFixtures();
  const fixture = fixtures.get(event);
  if (!fixture) {
    throw Unprocessable.field('event', `Unknown event "${event}". Events: ${[...fixtures.keys()].join(', ')}.`);
  }
  // As the merchant's own code would call, in process (app.inject): each step goes through
  // auth, validation, idempotency, faults and the request journal like any other request.
  // In the app's namespace: a named one's key carries its `~NAME`.
  const authorization = `Bearer ${namespacedKey(scope.mode === 'test' ? scope.source.test_key : scope.source.live_key, app.namespace)}`;
  const vars: Record<string, unknown> = {
    ...defaults,
    ...data,
    metadata: { ...(defaults.metadata as object), ...(data.metadata as object | undefined) },
    today: formatDate(app.clock.now()),
    source_currency: scope.source.currency,
    cards: { ...TRIGGER_CARDS[scope.mode], ...cardOverrides(data.cards) },
  };
  let eventId: string | null = null;
  const raised: string[] = [];
  const off = app.bus.on('domain', (e) => {
    if (e.source !== scope.source.slug || e.mode !== scope.mode) return;
    raised.push(e.name);
    if (eventId === null && e.name === event) eventId = e.id;
  });
  const steps: TriggerResult['steps'] = [];
  try {
    for (const step of fixture.steps) {
      if (step.mode !== undefined && step.mode !== scope.mode) continue;
      if ('effect' in step) {
        steps.push(applyEffect(app, scope, step, vars));
        continue;
      }
      const path = render(step.path, vars) as string;
      // A WrittenNumber of `data` (written.ts) reaches the step's body as it was written.
      const body = step.body === undefined ? undefined : bodyText(render(step.body, vars));
      // What the steps before this one made, each named with its kind (`session cs_...`, `payment 3`).
      const made = steps.map((s) => (s.created ? `${createdKind(s.created, s.path)} ${s.created}` : s.id));
      const label = `The trigger's step "${step.id}" (${step.method} ${path})`;
      let res: InjectedAnswer;
      try {
        res = await app.inject({ method: step.method, path, body, headers: { authorization } });
      } catch (error) {
        if (!(error instanceof Unanswered)) throw error;
        throw stepFailure(`${label} got no answer: a fault closed its connection.`, 500, made, error.carried);
      }
      // A later step reads an earlier answer's fields: one that is not JSON has none.
      const answer = res.body !== null && typeof res.body === 'object' ? (res.body as Record<string, unknown>) : null;
      steps.push({ id: step.id, method: step.method, path, status: res.status, created: createdId(answer) });
      if (res.status < 200 || res.status > 299) {
        const error = firstError(answer);
        throw stepFailure(`${label} was refused: ${error?.detail ?? `HTTP ${res.status}`}`, res.status, made, res.carried, error?.meta, res.retryAfter);
      }
      vars[step.id] = answer;
    }
  } finally {
    off();
  }
  if (eventId === null) {
    // Every step was accepted but the event did not happen (a decline where a payment was
    // meant): say so rather than answer as if it had.
    throw new Unprocessable(
      `The trigger ran, but ${event} did not happen: ${raised.length > 0 ? `it raised ${[...new Set(raised)].join(', ')}` : 'it raised no event'}.`,
    );
  }
  return { event, event_id: eventId, source: scope.source.slug, mode: scope.mode, steps };
}

/**
 * A step that failed, as the trigger answers it: with the step's status (a 5xx as 500). But a
 * 5xx, or no answer, after work was done (earlier steps made `made`, or a fault with `apply`
 * replaced the step's own 2xx, `carried`) is a 422 that says what ran and stays, since a client
 * retries a 5xx as if nothing ran. A 429 keeps the step's `Retry-After`.
 */
function stepFailure(
  failed: string,
  status: number,
  made: string[],
  carried: number | undefined,
  meta?: Record<string, unknown>,
  retryAfter?: string,
): HttpError {
  const ran = carried !== undefined && carried >= 200 && carried <= 299;
  if (status < 500 || (made.length === 0 && !ran))
    return new HttpError(Math.min(status, 500), failed, meta, retryAfter === undefined ? undefined : { 'Retry-After': retryAfter });
  const before = made.length > 0 ? ` The steps before it ran, and what they made stays: ${made.join(', ')}.` : '';
  const itself = ran ? ' The step itself was carried out before a fault replaced its answer.' : '';
  return new Unprocessable(`${failed.replace(/\.$/, '')}.${before}${itself}`);
}

/** An EffectStep: marks a card this Source saved in this mode as declining off-session charges. */
function applyEffect(app: App, scope: Scope, step: EffectStep, vars: Record<string, unknown>): TriggerResult['steps'][number] {
  if (step.effect !== 'card_declines_off_session') throw new Error(`trigger step "${step.id}": unknown effect ${String(step.effect)}`);
  const id = render(step.payment_method, vars);
  app.store.transaction((tx) => {
    const method = typeof id === 'string' ? tx.get(PaymentMethods, id) : undefined;
    if (!method || method.source !== scope.source.slug || method.mode !== scope.mode) {
      throw new Unprocessable(`The trigger's step "${step.id}" found no card to mark: the card of the step before was not saved (was it declined?).`);
    }
    tx.put(PaymentMethods, { ...method, decline_off_session: true });
  });
  return { id: step.id, method: 'EFFECT', path: `${step.effect} ${String(id)}`, status: 200, created: null };
}

/** `--set "cards.approved=3782 822463 10005"` pays with another card; a number `--set` parsed as JSON is read back as text. */
function cardOverrides(cards: unknown): Record<string, string> {
  if (cards === null || typeof cards !== 'object') return {};
  return Object.fromEntries(Object.entries(cards).map(([name, number]) => [name, String(number)]));
}

/** What a step reads of an answer: the envelope's first error, or the id of what it created. */
interface StepAnswer {
  errors?: { detail?: string; meta?: Record<string, unknown> }[];
  data?: { id?: unknown };
  payment?: { id?: unknown };
  session?: { id?: unknown };
}

function createdId(answer: StepAnswer | null): string | null {
  const id = answer?.data?.id ?? answer?.payment?.id ?? answer?.session?.id ?? null;
  return id === null || id === undefined ? null : String(id);
}

/** The first error of an envelope (`{"errors": [{detail, meta}]}`), if the answer is one. */
function firstError(answer: Record<string, unknown> | null): { detail?: string; meta?: Record<string, unknown> } | undefined {
  const errors = answer?.errors;
  const first: unknown = Array.isArray(errors) ? errors[0] : undefined;
  return first !== null && typeof first === 'object' ? (first as { detail?: string; meta?: Record<string, unknown> }) : undefined;
}
