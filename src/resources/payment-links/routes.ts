import { fieldsOf, parseDocumentQuery } from '../../http/document-query.js';
import { listRoute } from '../../http/list-route.js';
import { v1 } from '../../http/route.js';
import { linkList } from './list.js';
import { presentLink } from './present.js';
import { PaymentLinks } from './records.js';
import { createLinkBody, updateLinkBody, type LinkBody } from './schemas.js';
import { createLink, getLink, updateLink } from './service.js';

export const paymentLinkRoutes = [
  v1<LinkBody & { title: string }>({
    method: 'POST',
    path: '/v1/payment-links',
    body: createLinkBody,
    handle: ({ app, scope, body, now }) => {
      const link = app.store.transaction((tx) => createLink(tx, scope, body, now));
      return { status: 201, json: { data: presentLink(link, app.baseUrl(), now) } };
    },
  }),
  listRoute({ path: '/v1/payment-links', collection: PaymentLinks, spec: linkList, present: (l, base, fields, now) => presentLink(l, base, now, fields) }),
  v1({
    method: 'GET',
    path: '/v1/payment-links/:id',
    handle: ({ app, scope, params, query, now }) => {
      const fields = fieldsOf(parseDocumentQuery(query, linkList), 'payment-links');
      return { status: 200, json: { data: presentLink(getLink(app.store, scope, params.id!), app.baseUrl(), now, fields) } };
    },
  }),
  v1<LinkBody>({
    method: 'PATCH',
    path: '/v1/payment-links/:id',
    body: updateLinkBody,
    handle: ({ app, scope, params, body, now }) => {
      const link = app.store.transaction((tx) => updateLink(tx, scope, params.id!, body, now));
      return { status: 200, json: { data: presentLink(link, app.baseUrl(), now) } };
    },
  }),
];
