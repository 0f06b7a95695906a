import { parseDocumentQuery, sparseResource } from '../../http/document-query.js';
import { control, v1 } from '../../http/route.js';
import { methodSessionStatus } from '../payment-method-sessions/records.js';
import { attemptMethodUpdate, getMethodSession, type MethodAttemptResult } from '../payment-method-sessions/service.js';
import { presentPaymentSummary } from '../payments/present.js';
import { presentRecurring } from '../recurring/present.js';
import { sessionStatus } from './records.js';
import { cardAttemptBody, type CardAttemptBody } from '../cards/schemas.js';
import { createSessionBody, type CreateSessionBody } from './schemas.js';
import { attemptPayment, createSession, getSession } from './service.js';
import { presentCreatedSession, presentSession, sessionShape } from './present.js';

export const sessionRoutes = [
  v1<CreateSessionBody>({
    method: 'POST',
    path: '/v1/sessions',
    body: createSessionBody,
    handle: ({ app, scope, body, now }) => {
      const session = app.store.transaction((tx) => createSession(tx, scope, body, now));
      return { status: 201, json: presentCreatedSession(session, app.baseUrl()) };
    },
  }),
  v1({
    method: 'GET',
    path: '/v1/sessions/:id',
    handle: ({ app, scope, params, query, now }) => {
      const q = parseDocumentQuery(query, sessionShape);
      const session = getSession(app.store, scope, params.id!);
      const { data } = presentSession(session, app.baseUrl(), now);
      return { status: 200, json: { data: sparseResource(data, q, sessionShape) } };
    },
  }),
  // Completes a checkout, or a payment-method session, as the hosted page would (DESIGN.md section 7).
  control<CardAttemptBody>({
    method: 'POST',
    path: '/_payemu/sessions/:id/complete',
    body: cardAttemptBody,
    handle: ({ app, scope, params, body, now }) => {
      const attempt = { cardNumber: body.card_number, threeDs: body.three_ds };
      if (getMethodSession(app.store, scope, params.id!)) {
        const result = app.store.transaction((tx) => attemptMethodUpdate(tx, params.id!, attempt, now));
        return { status: 200, json: presentMethodAttempt(result, app.baseUrl(), now) };
      }
      const result = app.store.transaction((tx) => {
        getSession(tx, scope, params.id!);
        return attemptPayment(tx, params.id!, attempt, now, app.config());
      });
      return {
        status: 200,
        json: {
          session: { id: result.session.id, status: sessionStatus(result.session, now), payment_status: result.session.payment_status },
          payment: presentPaymentSummary(result.payment, app.baseUrl()),
        },
      };
    },
  }),
];

function presentMethodAttempt(result: MethodAttemptResult, base: string, now: number) {
  const session = { id: result.session.id, type: 'payment-method-session', status: methodSessionStatus(result.session, now) };
  if (!result.ok) return { session, updated: false, failure_code: result.code, failure_message: result.message };
  return {
    session,
    updated: true,
    payment_method: { id: result.method.id, card_brand: result.method.card_brand, card_last: result.method.card_last },
    recurring: presentRecurring(result.schedule, base).attributes,
  };
}
