import { actionRoute } from '../../http/resource-routes.js';
import { errors } from '../../schemas/wire.js';
import { paymentMethodSessionBody } from '../recurring/schemas.js';
import { presentMethodSession } from './present.js';
import { methodSessionDocument } from './wire.js';
import { createMethodSession } from './service.js';

/** The card update of a recurring payment: a hosted session where the customer replaces its card. */
export const methodSessionRoutes = [
  actionRoute<{ success_url?: string; cancel_url?: string }>(
    'POST',
    '/v1/recurring-payments/:reference/payment-method-session',
    'Open a hosted session where the customer replaces the card on file',
    {
      body: paymentMethodSessionBody,
      responses: { 201: methodSessionDocument, 404: errors, 422: errors },
      run: (tx, { app, scope, params, body, now }) => presentMethodSession(createMethodSession(tx, scope, params.reference!, body, now), app.baseUrl()),
    },
  ),
];
