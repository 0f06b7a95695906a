import { fieldsOf, parseDocumentQuery } from '../../http/document-query.js';
import { listRoute } from '../../http/list-route.js';
import { v1 } from '../../http/route.js';
import { findPayment } from './find.js';
import { paymentList } from './list.js';
import { captureBody, paymentQuery, voidBody } from './schemas.js';
import { formatTimestamp } from '../../clock/format.js';
import { presentRefund, refundShape } from '../refunds/present.js';
import { refundsOf } from '../refunds/service.js';
import { capturePayment, voidPayment } from './capture.js';
import { paymentShape, presentAction, presentPayment, presentPaymentListItem } from './present.js';
import { Payments } from './records.js';

export const paymentRoutes = [
  listRoute({ path: '/v1/payments', collection: Payments, spec: paymentList, present: (p, base, fields) => presentPaymentListItem(p, base, fields) }),
  v1<Record<string, never>, { include?: string }>({
    method: 'GET',
    path: '/v1/payments/:reference',
    query: paymentQuery,
    handle: ({ app, scope, params, query }) => {
      const q = parseDocumentQuery(query, { ...paymentShape, relationships: { refunds: refundShape } });
      const payment = findPayment(app.store, scope, params.reference!);
      const data = presentPayment(payment, app.baseUrl(), fieldsOf(q, 'payments'));
      if (query.include !== 'refunds') return { status: 200, json: { data } };
      // JSON:API: the payment names its refunds under relationships; they come in `included`.
      const refunds = refundsOf(app.store, payment).map((refund) => presentRefund(refund, fieldsOf(q, 'refunds')));
      return {
        status: 200,
        json: { data: { ...data, relationships: { refunds: { data: refunds.map(({ id, type }) => ({ type, id })) } } }, included: refunds },
      };
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
