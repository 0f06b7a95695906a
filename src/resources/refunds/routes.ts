import { fieldsOf } from '../../http/document-query.js';
import { actionRoute, readRoute } from '../../http/resource-routes.js';
import { errors } from '../../schemas/wire.js';
import { findPayment } from '../common/find-payment.js';
import { presentRefund, refundMeta, refundShape } from './present.js';
import { createRefundBody, type CreateRefundBody } from './schemas.js';
import { refundPayment, refundsOf } from './service.js';
import { refundDocument, refundListDocument } from './wire.js';

export const refundRoutes = [
  readRoute('/v1/payments/:reference/refunds', "List a payment's refunds", {
    shape: refundShape,
    document: refundListDocument,
    read: ({ app, scope, params }, q) => {
      const payment = findPayment(app.store, scope, params.reference!);
      return { data: refundsOf(app.store, payment).map((refund) => presentRefund(refund, fieldsOf(q, 'refunds'))), meta: refundMeta(payment) };
    },
  }),
  actionRoute<CreateRefundBody>('POST', '/v1/payments/:reference/refunds', 'Refund a payment (all or part)', {
    body: createRefundBody,
    responses: { 201: refundDocument, 404: errors, 422: errors },
    run: (tx, { scope, params, body, now }) => {
      const { refund, payment } = refundPayment(tx, scope, params.reference!, body, now);
      return { data: presentRefund(refund), meta: refundMeta(payment) };
    },
  }),
];
