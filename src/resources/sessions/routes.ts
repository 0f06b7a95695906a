import { parseDocumentQuery, sparseResource } from '../../http/document-query.js';
import { v1 } from '../../http/route.js';
import { createSessionBody, type CreateSessionBody } from './schemas.js';
import { createSession, getSession } from './service.js';
import { presentCreatedSession, presentSession, sessionShape } from './present.js';
import { documentParameters, errors } from '../../http/wire.js';
import { createdSessionDocument, sessionDocument } from './responses.js';

export const sessionRoutes = [
  v1<CreateSessionBody>({
    method: 'POST',
    path: '/v1/sessions',
    summary: 'Create a checkout session',
    body: createSessionBody,
    responses: { 201: createdSessionDocument, 409: errors },
    handle: ({ app, scope, body, now }) => {
      const session = app.store.transaction((tx) => createSession(tx, scope, body, now));
      return { status: 201, json: presentCreatedSession(session, app.baseUrl()) };
    },
  }),
  v1({
    method: 'GET',
    path: '/v1/sessions/:id',
    summary: 'Retrieve a checkout session',
    parameters: documentParameters(sessionShape),
    responses: { 200: sessionDocument, 400: errors, 404: errors, 422: errors },
    handle: ({ app, scope, params, query, now }) => {
      const q = parseDocumentQuery(query, sessionShape);
      const session = getSession(app.store, scope, params.id!);
      const { data } = presentSession(session, app.baseUrl(), now);
      return { status: 200, json: { data: sparseResource(data, q, sessionShape) } };
    },
  }),
];
