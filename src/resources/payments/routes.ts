import { listEnvelope, parseListQuery, runListQuery } from '../../http/list-query.js';
import { v1 } from '../../http/route.js';
import { findPayment } from './find.js';
import { paymentList } from './list.js';
import { captureBody, paymentQuery, voidBody } from './schemas.js';
import { formatTimestamp } from '../../clock/format.js';
import { formatMinor } from '../../lib/money.js';
import { presentRefund } from '../refunds/present.js';
import { refundsOf } from '../refunds/service.js';
import { capturePayment, voidPayment } from './capture.js';
import { paymentUrl, presentPayment, presentPaymentListItem } from './present.js';
import { Payments } from './records.js';

export const paymentRoutes = [
  v1({
    method: 'GET',
    path: '/v1/payments',
    handle: ({ app, scope, query }) => {
      const q = parseListQuery(query, paymentList);
      const records = app.store.find(Payments, 'scope', `${scope.source.slug}:${scope.mode}`);
      const list = runListQuery(records, q, paymentList);
      const base = app.baseUrl();
      return {
        status: 200,
        json: {
          data: list.page.map((p) => presentPaymentListItem(p, base, q.fields)),
          ...listEnvelope(base, '/v1/payments', query, list, q as never),
        },
      };
    },
  }),
  v1<Record<string, never>, { include?: string }>({
    method: 'GET',
    path: '/v1/payments/:reference',
    query: paymentQuery,
    handle: ({ app, scope, params, query }) => {
      const payment = findPayment(app.store, scope, params.reference!);
      const data = presentPayment(payment, app.baseUrl());
      if (query.include !== 'refunds') return { status: 200, json: { data } };
      // JSON:API: the payment names its refunds under relationships; they come in `included`.
      const refunds = refundsOf(app.store, payment).map(presentRefund);
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
      return {
        status: 200,
        json: {
          data: {
            id: Number(payment.id),
            type: 'payments',
            attributes: { reference: payment.reference, amount: formatMinor(payment.amount), status: payment.status, captured_at: formatTimestamp(payment.captured_at!) },
            links: { self: paymentUrl(app.baseUrl(), payment) },
          },
          meta: { message: 'Payment captured successfully.' },
        },
      };
    },
  }),
  v1({
    method: 'POST',
    path: '/v1/payments/:reference/void',
    body: voidBody,
    handle: ({ app, scope, params, now }) => {
      const payment = app.store.transaction((tx) => voidPayment(tx, scope, params.reference!, now));
      return {
        status: 200,
        json: {
          data: {
            id: Number(payment.id),
            type: 'payments',
            attributes: { reference: payment.reference, amount: formatMinor(payment.amount), status: payment.status },
            links: { self: paymentUrl(app.baseUrl(), payment) },
          },
          meta: { message: 'Payment voided: the hold was released.' },
        },
      };
    },
  }),
];
