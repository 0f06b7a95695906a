import { listEnvelope, parseListQuery, runListQuery } from '../../http/list-query.js';
import { NotFound } from '../../http/errors.js';
import type { Scope } from '../../http/auth.js';
import { v1 } from '../../http/route.js';
import type { Store } from '../../store/store.js';
import { referenceKey } from '../sessions/records.js';
import { paymentList } from './list.js';
import { presentPayment, presentPaymentListItem } from './present.js';
import { Payments, type PaymentRecord } from './records.js';

/** The payment of this Source and mode with `reference`, or a 404. */
export function findPayment(store: Pick<Store, 'find'>, scope: Scope, reference: string): PaymentRecord {
  const payment = store.find(Payments, 'reference', referenceKey(scope.mode, reference))[0];
  if (!payment || payment.source !== scope.source.slug) throw new NotFound(`No payment with reference "${reference}".`);
  return payment;
}

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
  v1({
    method: 'GET',
    path: '/v1/payments/:reference',
    handle: ({ app, scope, params }) => {
      const payment = findPayment(app.store, scope, params.reference!);
      return { status: 200, json: { data: presentPayment(payment, app.baseUrl()) } };
    },
  }),
];
