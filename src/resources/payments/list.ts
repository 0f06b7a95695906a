import type { ListSpec } from '../../http/list-query.js';
import { paymentShape } from './present.js';
import { PAYMENT_STATUSES, type PaymentRecord } from '../common/payment-records.js';

/** What `GET /v1/payments` filters and sorts on (the hosted API's query table). */
export const paymentList: ListSpec<PaymentRecord> = {
  type: 'payments',
  filters: {
    status: { kind: 'enum', values: PAYMENT_STATUSES, get: (p) => p.status },
    customer_email: { kind: 'text', get: (p) => p.customer_email, caseInsensitive: true },
    created_after: { kind: 'after', get: (p) => p.created_at },
    created_before: { kind: 'before', get: (p) => p.created_at },
  },
  sorts: {
    created_at: (p) => p.created_at,
    amount: (p) => p.amount,
    status: (p) => p.status,
  },
  attributes: paymentShape.attributes,
  relationships: paymentShape.relationships,
  id: (p) => Number(p.id),
};
