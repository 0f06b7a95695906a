import type { CardAttemptBody } from '../schemas/card.js';
import { methodSessionStatus } from '../resources/payment-method-sessions/records.js';
import type { MethodAttemptResult } from '../resources/payment-method-sessions/service.js';
import { presentRecurring } from '../resources/recurring/present.js';

// Paying without a browser (operations/session-complete.ts, invoice-pay.ts, link-pay.ts): what
// the hosted pages do with a card number, answered with what happened (a decline is a 200
// naming the FAILED payment).

/** The card of the body as the services take it. */
export const cardAttempt = (body: CardAttemptBody) => ({ cardNumber: body.card_number, threeDs: body.three_ds });

export function presentMethodAttempt(result: MethodAttemptResult, base: string, now: number) {
  const session = { id: result.session.id, type: 'payment-method-session', status: methodSessionStatus(result.session, now) };
  if (!result.ok) return { session, updated: false, failure_code: result.code, failure_message: result.message };
  return {
    session,
    updated: true,
    payment_method: { id: result.method.id, card_brand: result.method.card_brand, card_last: result.method.card_last },
    recurring: presentRecurring(result.schedule, base).attributes,
  };
}
