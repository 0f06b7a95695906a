import type { CardAttempt } from '../types.js';
import { presentPaymentSummary } from '../../resources/payments/present.js';
import { attemptMethodUpdate, getMethodSession } from '../../resources/payment-method-sessions/service.js';
import { sessionStatus } from '../../resources/sessions/records.js';
import { attemptPayment, getSession } from '../../resources/sessions/service.js';
import { cardAttemptBody, type CardAttemptBody } from '../../schemas/card.js';
import { sessionCompleted } from '../../schemas/control.js';
import { type Input, operation } from '../operation.js';
import { cardAttempt, presentMethodAttempt } from '../pay.js';

/** `POST /_payemu/sessions/:id/complete`: pays a checkout (or replaces the card of a payment-method session) as the hosted page would. */
export const sessionComplete = operation({
  method: 'POST',
  path: '/_payemu/sessions/:id/complete',
  summary: 'Pay a checkout session (or replace the card of a payment-method session) with a card number, as the hosted page does',
  body: cardAttemptBody,
  result: sessionCompleted,
  errors: [404, 409, 410, 422],
  run: (app, scope, { params, body }: Input<CardAttemptBody, never, 'id'>, { now }) => {
    const attempt = cardAttempt(body);
    if (getMethodSession(app.store, scope, params.id)) {
      const result = app.store.transaction((tx) => attemptMethodUpdate(tx, params.id, attempt, now));
      return presentMethodAttempt(result, app.baseUrl(), now);
    }
    const result = app.store.transaction((tx) => {
      getSession(tx, scope, params.id);
      return attemptPayment(tx, params.id, attempt, now, app.config());
    });
    return {
      session: { id: result.session.id, status: sessionStatus(result.session, now), payment_status: result.session.payment_status },
      payment: presentPaymentSummary(result.payment, app.baseUrl()),
    };
  },
  client: { name: 'completeSession', args: (id: string, card: CardAttempt) => ({ params: { id }, body: card }) },
});
