import type { Reply } from '../http/envelope.js';
import { checkCardDetails, group, TEST_CARDS } from '../resources/common/test-cards.js';
import { html, page, type Raw } from './html.js';

/** The card form shared by the hosted pages that take a card (checkout, card update). */
export interface CardFormState {
  values?: Record<string, string>;
  problems?: Record<string, string>;
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

export function redirect(location: string): Reply {
  return { status: 303, headers: { Location: location } };
}
