import type { ListSpec } from '../../http/list-query.js';
import { RECURRING_ATTRIBUTES } from './present.js';
import type { RecurringRecord } from './records.js';

export const recurringList: ListSpec<RecurringRecord> = {
  type: 'recurring-payments',
  filters: {
    status: { kind: 'enum', values: ['active', 'paused', 'suspended', 'cancelled', 'completed'], get: (r) => r.status },
    customer_email: { kind: 'text', get: (r) => r.customer_email, caseInsensitive: true },
  },
  sorts: {
    created_at: (r) => r.created_at,
    amount: (r) => r.amount,
    next_billing_date: (r) => r.next_billing_date ?? Number.MAX_SAFE_INTEGER,
  },
  attributes: RECURRING_ATTRIBUTES,
  id: (r) => r.reference,
};
