import type { Mode } from '../../config/types.js';
import { Unprocessable } from '../../http/errors.js';

/** Why a payment failed: `failure_code` of a FAILED payment and of `payment.failed`. */
export type FailureCode = 'insufficient_funds' | 'card_declined' | 'expired_card' | 'incorrect_cvc' | 'authentication_failed' | 'card_not_supported';

export type CardBrand = 'visa' | 'mastercard' | 'amex';

type Behaviour = { outcome: 'approve'; declineOffSession?: boolean } | { outcome: 'decline'; code: FailureCode } | { outcome: 'three_ds' };

/** The test cards (docs/api.md, Test cards), in the order the pages list them. */
export const TEST_CARDS: readonly { number: string; label: string; behaviour: Behaviour }[] = [
  { number: '4242424242424242', label: 'approved (Visa)', behaviour: { outcome: 'approve' } },
  { number: '5555555555554444', label: 'approved (Mastercard)', behaviour: { outcome: 'approve' } },
  { number: '378282246310005', label: 'approved (American Express)', behaviour: { outcome: 'approve' } },
  { number: '4000000000000002', label: 'declined, insufficient funds', behaviour: { outcome: 'decline', code: 'insufficient_funds' } },
  { number: '4000000000009995', label: 'declined, generic', behaviour: { outcome: 'decline', code: 'card_declined' } },
  { number: '4000000000000069', label: 'declined, expired card', behaviour: { outcome: 'decline', code: 'expired_card' } },
  { number: '4000000000000127', label: 'declined, incorrect CVC', behaviour: { outcome: 'decline', code: 'incorrect_cvc' } },
  { number: '4000002760003184', label: '3-D Secure challenge, then approved or failed', behaviour: { outcome: 'three_ds' } },
  {
    number: '4000000000000341',
    label: 'approved now, later off-session charges declined',
    behaviour: { outcome: 'approve', declineOffSession: true },
  },
];

const BY_NUMBER = new Map(TEST_CARDS.map((card) => [card.number, card]));

export const FAILURE_MESSAGES: Record<FailureCode, string> = {
  insufficient_funds: 'Your card has insufficient funds.',
  card_declined: 'Your card was declined.',
  expired_card: 'Your card has expired.',
  incorrect_cvc: "Your card's security code is incorrect.",
  authentication_failed: 'The 3-D Secure authentication of your card failed.',
  card_not_supported: `This card number is not a payemu test card. Use one of: ${TEST_CARDS.map((c) => `${group(c.number)} (${c.label})`).join('; ')}.`,
};

export type CardOutcome =
  | { outcome: 'approve'; brand: CardBrand; last4: string; declineOffSession: boolean }
  | { outcome: 'decline'; brand: CardBrand | null; last4: string; code: FailureCode; message: string }
  | { outcome: 'three_ds'; brand: CardBrand; last4: string };

/** Digits only: spaces and dashes are how people type card numbers. */
export function normalizeCardNumber(input: string): string {
  return input.replace(/[\s-]/g, '');
}

/**
 * Why `input` cannot be a card number, or undefined: it must have 12 to 19 digits and pass the
 * Luhn check. A number that fails is a typing mistake, not a card: it never reaches a payment
 * attempt. The hosted forms show this message on the field; the control plane answers it as a
 * 422 on `card_number` (through parseCardNumber).
 */
export function cardNumberProblem(input: string): string | undefined {
  const number = normalizeCardNumber(input);
  if (!/^\d{12,19}$/.test(number)) return 'Enter a card number of 12 to 19 digits.';
  if (!luhnValid(number)) return 'This card number is not valid: check it for a mistyped digit.';
  return undefined;
}

/**
 * The one place a presented card number is read: its digits, or a 422 on `card_number` when
 * cardNumberProblem finds one. Every path that takes a card (checkout, 3-D Secure, card update,
 * invoice and link pay, `payemu pay`) goes through evaluateCard, hence through here.
 */
export function parseCardNumber(input: string): string {
  const problem = cardNumberProblem(input);
  if (problem) throw Unprocessable.field('card_number', problem);
  return normalizeCardNumber(input);
}

/** What happens when `number` is presented in `mode`: the test-card table, or live mode's rules; a mistyped number is a 422. */
export function evaluateCard(input: string, mode: Mode): CardOutcome {
  const number = parseCardNumber(input);
  const last4 = number.slice(-4);
  const brand = detectBrand(number);
  const known = BY_NUMBER.get(number);
  if (mode === 'live') {
    if (known) return decline(brand, last4, 'card_declined', 'A test card was used in live mode.');
    if (!brand) return decline(null, last4, 'card_not_supported', 'This card brand is not supported: use Visa, Mastercard or American Express.');
    return { outcome: 'approve', brand, last4, declineOffSession: false };
  }
  if (!known) return decline(brand, last4, 'card_not_supported', FAILURE_MESSAGES.card_not_supported);
  const behaviour = known.behaviour;
  if (behaviour.outcome === 'decline') return decline(brand, last4, behaviour.code, FAILURE_MESSAGES[behaviour.code]);
  if (behaviour.outcome === 'three_ds') return { outcome: 'three_ds', brand: brand!, last4 };
  return { outcome: 'approve', brand: brand!, last4, declineOffSession: behaviour.declineOffSession === true };
}

function decline(brand: CardBrand | null, last4: string, code: FailureCode, message: string): CardOutcome {
  return { outcome: 'decline', brand, last4, code, message };
}

export function detectBrand(number: string): CardBrand | null {
  if (/^4\d{12}(\d{3}){0,2}$/.test(number)) return 'visa';
  if (/^3[47]\d{13}$/.test(number)) return 'amex';
  const two = Number(number.slice(0, 2));
  const four = Number(number.slice(0, 4));
  if (number.length === 16 && ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720))) return 'mastercard';
  return null;
}

export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** `4242424242424242` -> `4242 4242 4242 4242`; American Express as `3782 822463 10005`. */
export function group(number: string): string {
  if (number.length === 15) return `${number.slice(0, 4)} ${number.slice(4, 10)} ${number.slice(10)}`;
  return number.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** The checks the hosted form makes before an attempt: a card number (cardNumberProblem), a future expiry and a plausible CVC. */
export function checkCardDetails(number: string, expiry: { month: number; year: number }, cvc: string, now: number): Record<string, string> {
  const problems: Record<string, string> = {};
  const digits = normalizeCardNumber(number);
  const numberProblem = cardNumberProblem(number);
  if (numberProblem) problems.card_number = numberProblem;
  const current = new Date(now);
  const monthIndex = expiry.year * 12 + expiry.month;
  const nowIndex = current.getUTCFullYear() * 12 + current.getUTCMonth() + 1;
  if (!(expiry.month >= 1 && expiry.month <= 12) || !Number.isInteger(expiry.year)) problems.expiry = 'Enter the expiry date as MM/YY.';
  else if (monthIndex < nowIndex) problems.expiry = 'The expiry date is in the past.';
  const cvcLength = detectBrand(digits) === 'amex' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(cvc.trim())) problems.cvc = `Enter the ${cvcLength}-digit security code.`;
  return problems;
}

/**
 * The outcome of a card presented by a customer who may have answered a 3-D Secure challenge
 * (`threeDs`): approve or decline. A card that asks for the challenge without an answer is a 422.
 */
export function presentCard(number: string, mode: Mode, threeDs: 'pass' | 'fail' | undefined): Exclude<CardOutcome, { outcome: 'three_ds' }> {
  const outcome = evaluateCard(number, mode);
  if (outcome.outcome !== 'three_ds') return outcome;
  if (!threeDs) throw Unprocessable.field('three_ds', 'This card asks for 3-D Secure: send "three_ds": "pass" or "fail".');
  return threeDs === 'pass'
    ? { outcome: 'approve', brand: outcome.brand, last4: outcome.last4, declineOffSession: false }
    : { outcome: 'decline', brand: outcome.brand, last4: outcome.last4, code: 'authentication_failed', message: FAILURE_MESSAGES.authentication_failed };
}
