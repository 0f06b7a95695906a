import { fieldsOf, parseDocumentQuery } from '../../http/document-query.js';
import { listRoute } from '../../http/list-route.js';
import { control, v1 } from '../../http/route.js';
import { presentPaymentSummary } from '../payments/present.js';
import { attemptPayment } from '../sessions/service.js';
import { linkList } from './list.js';
import { presentLink } from './present.js';
import { PaymentLinks } from './records.js';
import { createLinkBody, updateLinkBody, type LinkBody } from './schemas.js';
import { createLink, getLink, openCheckout, updateLink } from './service.js';
import { cardAttemptBody, type CardAttemptBody } from '../cards/schemas.js';

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
  // Pays as the hosted link page would: opens a checkout and pays it (DESIGN.md section 7).
  control<CardAttemptBody>({
    method: 'POST',
    path: '/_payemu/payment-links/:id/pay',
    body: cardAttemptBody,
    handle: ({ app, scope, params, body, now }) => {
      const result = app.store.transaction((tx) => {
        const session = openCheckout(tx, scope, getLink(tx, scope, params.id!), now);
        return attemptPayment(tx, session.id, { cardNumber: body.card_number, threeDs: body.three_ds }, now, app.config());
      });
      const base = app.baseUrl();
      const link = app.store.get(PaymentLinks, String(Number(params.id)))!;
      return { status: 200, json: { session_id: result.session.id, payment: presentPaymentSummary(result.payment, base), payment_link: presentLink(link, base, now).attributes } };
    },
  }),
];
