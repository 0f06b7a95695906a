import { fieldsOf, parseDocumentQuery } from '../../http/document-query.js';
import { v1 } from '../../http/route.js';
import { findPayment } from '../shared/find-payment.js';
import { presentRefund, refundMeta, refundShape } from './present.js';
import { createRefundBody, type CreateRefundBody } from './schemas.js';
import { refundPayment, refundsOf } from './service.js';
import { documentParameters, errors } from '../../http/wire.js';
import { refundDocument, refundListDocument } from './responses.js';

export const refundRoutes = [
  v1({
    method: 'GET',
    path: '/v1/payments/:reference/refunds',
    summary: "List a payment's refunds",
    parameters: documentParameters(refundShape),
    responses: { 200: refundListDocument, 400: errors, 404: errors, 422: errors },
    handle: ({ app, scope, params, query }) => {
      const fields = fieldsOf(parseDocumentQuery(query, refundShape), 'refunds');
      const payment = findPayment(app.store, scope, params.reference!);
      return { status: 200, json: { data: refundsOf(app.store, payment).map((refund) => presentRefund(refund, fields)), meta: refundMeta(payment) } };
    },
  }),
  v1<CreateRefundBody>({
    method: 'POST',
    path: '/v1/payments/:reference/refunds',
    summary: 'Refund a payment (all or part)',
    body: createRefundBody,
    responses: { 201: refundDocument, 404: errors, 422: errors },
    handle: ({ app, scope, params, body, now }) => {
      const { refund, payment } = app.store.transaction((tx) => refundPayment(tx, scope, params.reference!, body, now));
      return { status: 201, json: { data: presentRefund(refund), meta: refundMeta(payment) } };
    },
  }),
];
