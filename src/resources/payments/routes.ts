import { parseDocumentQuery } from '../../http/document-query.js';
import { listRoute } from '../../http/list-route.js';
import { v1 } from '../../http/route.js';
import { findPayment } from './find.js';
import { paymentList } from './list.js';
import { captureBody, voidBody } from './schemas.js';
import { formatTimestamp } from '../../clock/format.js';
import { capturePayment, voidPayment } from './capture.js';
import { paymentDocument } from './document.js';
import { LIST_ATTRIBUTES, paymentShape, presentAction } from './present.js';
import { Payments } from './records.js';

export const paymentRoutes = [
  listRoute({
    path: '/v1/payments',
    collection: Payments,
    spec: paymentList,
    document: (page, query, { app, base }) => paymentDocument(app.store, page, query, base, LIST_ATTRIBUTES),
  }),
  v1({
    method: 'GET',
    path: '/v1/payments/:reference',
    handle: ({ app, scope, params, query }) => {
      const q = parseDocumentQuery(query, paymentShape);
      const payment = findPayment(app.store, scope, params.reference!);
      const { data, included } = paymentDocument(app.store, [payment], q, app.baseUrl());
      return { status: 200, json: { data: data[0], ...(included ? { included } : {}) } };
    },
  }),
  v1<{ amount?: number }>({
    method: 'POST',
    path: '/v1/payments/:reference/capture',
    body: captureBody,
    handle: ({ app, scope, params, body, now }) => {
      const payment = app.store.transaction((tx) => capturePayment(tx, scope, params.reference!, body.amount, now));
      return { status: 200, json: presentAction(payment, app.baseUrl(), { captured_at: formatTimestamp(payment.captured_at!) }, 'Payment captured successfully.') };
    },
  }),
  v1({
    method: 'POST',
    path: '/v1/payments/:reference/void',
    body: voidBody,
    handle: ({ app, scope, params, now }) => {
      const payment = app.store.transaction((tx) => voidPayment(tx, scope, params.reference!, now));
      return { status: 200, json: presentAction(payment, app.baseUrl(), {}, 'Payment voided: the hold was released.') };
    },
  }),
];
