import { listRoute } from '../../http/list-route.js';
import { actionRoute, readRoute } from '../../http/resource-routes.js';
import { findPayment } from '../common/find-payment.js';
import { paymentList } from './list.js';
import { captureBody, voidBody } from './schemas.js';
import { formatTimestamp } from '../../clock/format.js';
import { capturePayment, voidPayment } from './capture.js';
import { paymentDocument } from './document.js';
import { paymentShape, presentAction } from './present.js';
import { capturedAt, Payments } from '../common/payment-records.js';
import { errors } from '../../schemas/wire.js';
import { captureDocument, LIST_ATTRIBUTES, paymentListDocument, paymentReadDocument, voidDocument } from './wire.js';

export const paymentRoutes = [
  listRoute('/v1/payments', 'List payments', {
    responses: { 200: paymentListDocument, 400: errors, 422: errors },
    collection: Payments,
    spec: paymentList,
    document: (page, query, { app, base }) => paymentDocument(app.store, page, query, base, LIST_ATTRIBUTES),
  }),
  readRoute('/v1/payments/:reference', 'Retrieve a payment by its reference', {
    shape: paymentShape,
    document: paymentReadDocument,
    load: ({ app, scope, params }) => findPayment(app.store, scope, params.reference!),
    present: (payment, { app }, q) => {
      const { data, included } = paymentDocument(app.store, [payment], q, app.baseUrl());
      return { data: data[0], ...(included ? { included } : {}) };
    },
  }),
  actionRoute<{ amount?: number }>('POST', '/v1/payments/:reference/capture', 'Capture an authorized payment (all of the hold or less)', {
    body: captureBody,
    responses: { 200: captureDocument, 404: errors, 422: errors },
    run: (tx, { app, scope, params, body, now }) => {
      const payment = capturePayment(tx, scope, params.reference!, body.amount, now);
      return presentAction(payment, app.baseUrl(), { captured_at: formatTimestamp(capturedAt(payment)!) }, 'Payment captured successfully.');
    },
  }),
  actionRoute('POST', '/v1/payments/:reference/void', 'Void an authorized payment (release the hold)', {
    body: voidBody,
    responses: { 200: voidDocument, 404: errors, 422: errors },
    run: (tx, { app, scope, params, now }) =>
      presentAction(voidPayment(tx, scope, params.reference!, now), app.baseUrl(), {}, 'Payment voided: the hold was released.'),
  }),
];
