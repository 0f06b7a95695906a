import type { Mode } from '../config/types.js';
import { readForm } from '../http/body.js';
import type { Reply } from '../http/envelope.js';
import { HttpError } from '../http/errors.js';
import type { OpenContext } from '../http/route.js';
import { checkCardDetails, evaluateCard, group, TEST_CARDS } from '../resources/common/test-cards.js';
import type { Transaction } from '../store/store.js';
import { html, page, type Raw } from './html.js';

/** The card form shared by the hosted pages that take a card (checkout, card update). */
export interface CardFormState {
  values?: Record<string, string>;
  problems?: Record<string, string>;
  /** Why the last attempt was declined: each page says it over the form. */
  declined?: string;
}

/** The card form's fields as submitted, a missing one as ''. */
export type CardValues = Record<'card_number' | 'expiry' | 'cvc' | 'name', string>;

export interface CardInput {
  values: CardValues;
  /** Problems to show on the fields before any attempt (expiry, CVC, number format). */
  problems: Record<string, string>;
  threeDs: 'pass' | 'fail' | undefined;
}

/** Reads the submitted form and checks what the page checks before an attempt. */
export function readCardForm(form: Record<string, string>, now: number): CardInput {
  const values: CardValues = { card_number: form.card_number ?? '', expiry: form.expiry ?? '', cvc: form.cvc ?? '', name: form.name ?? '' };
  const problems = checkCardDetails(values.card_number, parseExpiry(values.expiry), values.cvc, now);
  const threeDs = form.three_ds === 'pass' || form.three_ds === 'fail' ? form.three_ds : undefined;
  return { values, problems, threeDs };
}

export function cardFields(state: CardFormState): Raw {
  const v = state.values ?? {};
  const p = state.problems ?? {};
  // Without JavaScript, `autofocus` puts the customer on the first field to correct.
  const focus = ['card_number', 'expiry', 'cvc', 'name'].find((name) => p[name]);
  const field = (name: string, label: string, attrs: Raw) => html`
    <label for="${name}">${label}</label>
    <input id="${name}" name="${name}" value="${v[name] ?? ''}" ${attrs} aria-invalid="${p[name] ? 'true' : 'false'}"${p[name] ? html` aria-describedby="${name}-error"` : ''}${focus === name ? html` autofocus` : ''}>
    ${p[name] ? html`<p class="field-error" id="${name}-error" role="alert">${p[name]}</p>` : ''}`;
  return html`
      ${field('card_number', 'Card number', html`inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242"`)}
      <div class="row">
        <div>${field('expiry', 'Expiry (MM/YY)', html`autocomplete="cc-exp" placeholder="12/34"`)}</div>
        <div>${field('cvc', 'CVC', html`inputmode="numeric" autocomplete="cc-csc" placeholder="123"`)}</div>
      </div>
      ${field('name', 'Name on card (optional)', html`autocomplete="cc-name"`)}`;
}

/** The sandbox 3-D Secure challenge: the card travels in hidden fields to `action`. */
export function challengePage(action: string, question: Raw, values: Record<string, string>, mode: 'test' | 'live'): Reply {
  const hidden = Object.entries(values).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  const body = html`
    <h1>3-D Secure</h1>
    <p>${question}</p>
    <p class="muted">Sandbox challenge: choose how the authentication ends.</p>
    <form method="post" action="${action}">${hidden}<input type="hidden" name="three_ds" value="pass">
      <button type="submit">Complete authentication</button></form>
    <form method="post" action="${action}">${hidden}<input type="hidden" name="three_ds" value="fail">
      <button class="secondary" type="submit">Fail authentication</button></form>`;
  return { status: 200, html: page('3-D Secure', body, mode) };
}

export function testCardHelp(): Raw {
  return html`<details><summary>Test cards</summary><table>
    ${TEST_CARDS.map((card) => html`<tr><td><code>${group(card.number)}</code></td><td>${card.label}</td></tr>`)}
    </table><p>Any future expiry date and any CVC.</p></details>`;
}

function parseExpiry(text: string): { month: number; year: number } {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!match) return { month: 0, year: Number.NaN };
  const year = Number(match[2]);
  return { month: Number(match[1]), year: year < 100 ? 2000 + year : year };
}

/** What a page's card post attempts, and what the page answers at each step of it (`submitCard`). */
export interface CardSubmit<Result> {
  mode: Mode;
  /** The page's form again: with the problems of the fields (422), or after a decline (402, the card number emptied). */
  form: (state: CardFormState, status: number) => Reply;
  /** The 3-D Secure challenge: where it posts back (the page's `/3ds` path) and what it asks. */
  challenge: { action: string; question: Raw };
  /** The attempt, in one transaction. */
  attempt: (tx: Transaction, card: { cardNumber: string; threeDs?: 'pass' | 'fail' }) => Result;
  /** The page shown when the attempt is refused (an `HttpError`: paid meanwhile, say): its title and heading over the reason. */
  refused: { title: string; heading: string };
  /** Why the attempt was declined (the form again), or the page's own answer to a decline; undefined when it went through. */
  declined: (result: Result) => string | Reply | undefined;
  /** The answer to an attempt that went through. */
  done: (result: Result) => Reply;
}

/**
 * A card post of a hosted page: the fields checked first (the form again, 422), the 3-D Secure
 * challenge for a card that asks for it (unless this post answers it), then the attempt.
 */
export async function submitCard<Result>(ctx: OpenContext, submit: CardSubmit<Result>): Promise<Reply> {
  const { values, problems, threeDs } = readCardForm(await readForm(ctx.req), ctx.now);
  if (Object.keys(problems).length > 0) return submit.form({ values, problems }, 422);
  if (!threeDs && evaluateCard(values.card_number, submit.mode).outcome === 'three_ds')
    return challengePage(submit.challenge.action, submit.challenge.question, values, submit.mode);
  let result: Result;
  try {
    result = ctx.app.store.transaction((tx) => submit.attempt(tx, { cardNumber: values.card_number, threeDs }));
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const { title, heading } = submit.refused;
    return { status: error.status, html: page(title, html`<h1>${heading}</h1><p class="alert">${error.detail}</p>`, submit.mode) };
  }
  const declined = submit.declined(result);
  if (declined === undefined) return submit.done(result);
  return typeof declined === 'string' ? submit.form({ values: { ...values, card_number: '' }, declined }, 402) : declined;
}

export function redirect(location: string): Reply {
  return { status: 303, headers: { Location: location } };
}
