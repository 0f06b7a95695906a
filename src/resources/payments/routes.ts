import { parseDocumentQuery } from '../../http/document-query.js';
import { listRoute } from '../../http/list-route.js';
import { v1 } from '../../http/route.js';
import { findPayment } from '../shared/find-payment.js';
import { paymentList } from './list.js';
import { captureBody, voidBody } from './schemas.js';
import { formatTimestamp } from '../../clock/format.js';
import { capturePayment, voidPayment } from './capture.js';
import { paymentDocument } from './document.js';
import { LIST_ATTRIBUTES, paymentShape, presentAction } from './present.js';
import { Payments } from '../shared/payment-records.js';
import { documentParameters, errors } from '../../http/wire.js';
import { captureDocument, paymentListDocument, paymentReadDocument, voidDocument } from './responses.js';

export const paymentRoutes = [
  listRoute({
    path: '/v1/payments',
    summary: 'List payments',
    responses: { 200: paymentListDocument, 400: errors, 422: errors },
    collection: Payments,
    spec: paymentList,
    document: (page, query, { app, base }) => paymentDocument(app.store, page, query, base, LIST_ATTRIBUTES),
  }),
  v1({
    method: 'GET',
    path: '/v1/payments/:reference',
    summary: 'Retrieve a payment by its reference',
    parameters: documentParameters(paymentShape),
    responses: { 200: paymentReadDocument, 400: errors, 404: errors, 422: errors },
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
    summary: 'Capture an authorized payment (all of the hold or less)',
    body: captureBody,
    responses: { 200: captureDocument, 404: errors, 422: errors },
    handle: ({ app, scope, params, body, now }) => {
      const payment = app.store.transaction((tx) => capturePayment(tx, scope, params.reference!, body.amount, now));
      return {
        status: 200,
        json: presentAction(payment, app.baseUrl(), { captured_at: formatTimestamp(payment.captured_at!) }, 'Payment captured successfully.'),
      };
    },
  }),
  v1({
    method: 'POST',
    path: '/v1/payments/:reference/void',
    summary: 'Void an authorized payment (release the hold)',
    body: voidBody,
    responses: { 200: voidDocument, 404: errors, 422: errors },
    handle: ({ app, scope, params, now }) => {
      const payment = app.store.transaction((tx) => voidPayment(tx, scope, params.reference!, now));
      return { status: 200, json: presentAction(payment, app.baseUrl(), {}, 'Payment voided: the hold was released.') };
    },
  }),
];
