import { fieldsOf, parseDocumentQuery } from '../../http/document-query.js';
import { listRoute } from '../../http/list-route.js';
import { v1 } from '../../http/route.js';
import { linkList } from './list.js';
import { presentLink } from './present.js';
import { PaymentLinks } from './records.js';
import { createLinkBody, updateLinkBody, type CreateLinkBody, type UpdateLinkBody } from './schemas.js';
import { createLink, getLink, updateLink } from './service.js';
import { documentParameters, errors } from '../../http/wire.js';
import { linkDocument, linkListDocument, linkReadDocument } from './responses.js';

export const paymentLinkRoutes = [
  v1<CreateLinkBody>({
    method: 'POST',
    path: '/v1/payment-links',
    summary: 'Create a payment link',
    body: createLinkBody,
    responses: { 201: linkDocument, 422: errors },
    handle: ({ app, scope, body, now }) => {
      const link = app.store.transaction((tx) => createLink(tx, scope, body, now));
      return { status: 201, json: { data: presentLink(link, app.baseUrl(), now) } };
    },
  }),
  listRoute({
    path: '/v1/payment-links',
    summary: 'List payment links',
    responses: { 200: linkListDocument, 400: errors, 422: errors },
    collection: PaymentLinks,
    spec: linkList,
    present: (l, base, fields, now) => presentLink(l, base, now, fields),
  }),
  v1({
    method: 'GET',
    path: '/v1/payment-links/:id',
    summary: 'Retrieve a payment link',
    parameters: documentParameters(linkList),
    responses: { 200: linkReadDocument, 400: errors, 404: errors, 422: errors },
    handle: ({ app, scope, params, query, now }) => {
      const fields = fieldsOf(parseDocumentQuery(query, linkList), 'payment-links');
      return { status: 200, json: { data: presentLink(getLink(app.store, scope, params.id!), app.baseUrl(), now, fields) } };
    },
  }),
  v1<UpdateLinkBody>({
    method: 'PATCH',
    path: '/v1/payment-links/:id',
    summary: 'Update a payment link (send only the fields to change)',
    body: updateLinkBody,
    responses: { 200: linkDocument, 404: errors, 422: errors },
    handle: ({ app, scope, params, body, now }) => {
      const link = app.store.transaction((tx) => updateLink(tx, scope, params.id!, body, now));
      return { status: 200, json: { data: presentLink(link, app.baseUrl(), now) } };
    },
  }),
];
