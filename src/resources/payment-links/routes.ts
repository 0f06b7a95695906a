import { fieldsOf } from '../../http/document-query.js';
import { listRoute } from '../../http/list-route.js';
import { actionRoute, readRoute } from '../../http/resource-routes.js';
import { errors } from '../../schemas/wire.js';
import { linkList } from './list.js';
import { presentLink } from './present.js';
import { PaymentLinks } from './records.js';
import { createLinkBody, updateLinkBody, type CreateLinkBody, type UpdateLinkBody } from './schemas.js';
import { createLink, getLink, updateLink } from './service.js';
import { linkDocument, linkIdParameter, linkListDocument, linkReadDocument } from './wire.js';

export const paymentLinkRoutes = [
  actionRoute<CreateLinkBody>('POST', '/v1/payment-links', 'Create a payment link', {
    body: createLinkBody,
    responses: { 201: linkDocument, 422: errors },
    run: (tx, { app, scope, body, now }) => ({ data: presentLink(createLink(tx, scope, body, now), app.baseUrl(), now) }),
  }),
  listRoute('/v1/payment-links', 'List payment links', {
    responses: { 200: linkListDocument, 400: errors, 422: errors },
    collection: PaymentLinks,
    spec: linkList,
    present: (l, base, fields, now) => presentLink(l, base, now, fields),
  }),
  readRoute('/v1/payment-links/:id', 'Retrieve a payment link', {
    shape: linkList,
    document: linkReadDocument,
    pathParameters: { id: linkIdParameter },
    read: ({ app, scope, params, now }, q) => ({ data: presentLink(getLink(app.store, scope, params.id!), app.baseUrl(), now, fieldsOf(q, 'payment-links')) }),
  }),
  actionRoute<UpdateLinkBody>('PATCH', '/v1/payment-links/:id', 'Update a payment link (send only the fields to change)', {
    body: updateLinkBody,
    responses: { 200: linkDocument, 404: errors, 422: errors },
    pathParameters: { id: linkIdParameter },
    run: (tx, { app, scope, params, body, now }) => ({ data: presentLink(updateLink(tx, scope, params.id!, body, now), app.baseUrl(), now) }),
  }),
];
