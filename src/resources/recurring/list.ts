import type { ListSpec } from '../../http/list-query.js';
import { recurringAttributes as attributesSchema } from '../../schemas/recurring.js';
import { attributeNames } from '../../schemas/wire.js';
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
  attributes: attributeNames(attributesSchema),
  id: (r) => r.reference,
};
