import { sparseResource } from '../../http/document-query.js';
import { actionRoute, readRoute } from '../../http/resource-routes.js';
import { errors } from '../../schemas/wire.js';
import { createSessionBody, type CreateSessionBody } from './schemas.js';
import { createSession, getSession } from './service.js';
import { presentCreatedSession, presentSession, sessionShape } from './present.js';
import { createdSessionDocument, sessionDocument } from './wire.js';

export const sessionRoutes = [
  actionRoute<CreateSessionBody>('POST', '/v1/sessions', 'Create a checkout session', {
    body: createSessionBody,
    responses: { 201: createdSessionDocument, 409: errors },
    run: (tx, { app, scope, body, now }) => presentCreatedSession(createSession(tx, scope, body, now), app.baseUrl()),
  }),
  readRoute('/v1/sessions/:id', 'Retrieve a checkout session', {
    shape: sessionShape,
    document: sessionDocument,
    read: ({ app, scope, params, now }, q) => {
      const { data } = presentSession(getSession(app.store, scope, params.id!), app.baseUrl(), now);
      return { data: sparseResource(data, q, sessionShape) };
    },
  }),
];
