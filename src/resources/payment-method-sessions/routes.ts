import { v1 } from '../../http/route.js';
import { errors } from '../../http/wire.js';
import { paymentMethodSessionBody } from '../recurring/schemas.js';
import { presentMethodSession } from './present.js';
import { methodSessionDocument } from './responses.js';
import { createMethodSession } from './service.js';

/** The card update of a recurring payment: a hosted session where the customer replaces its card. */
export const methodSessionRoutes = [
  v1<{ success_url?: string; cancel_url?: string }>({
    method: 'POST',
    path: '/v1/recurring-payments/:reference/payment-method-session',
    summary: 'Open a hosted session where the customer replaces the card on file',
    body: paymentMethodSessionBody,
    responses: { 201: methodSessionDocument, 404: errors, 422: errors },
    handle: ({ app, scope, params, body, now }) => {
      const session = app.store.transaction((tx) => createMethodSession(tx, scope, params.reference!, body, now));
      return { status: 201, json: presentMethodSession(session, app.baseUrl()) };
    },
  }),
];
