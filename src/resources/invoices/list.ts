import type { ListSpec } from '../../http/list-query.js';
import { INVOICE_ATTRIBUTES } from './present.js';
import type { InvoiceRecord } from './records.js';

export const invoiceList: ListSpec<InvoiceRecord> = {
  type: 'invoices',
  filters: {
    status: { kind: 'enum', values: ['draft', 'sent', 'paid', 'overdue'], get: (i) => i.status },
    customer_email: { kind: 'text', get: (i) => i.customer_email, caseInsensitive: true },
  },
  sorts: {
    created_at: (i) => i.created_at,
    due_date: (i) => i.due_date,
    number: (i) => i.number,
  },
  attributes: INVOICE_ATTRIBUTES,
  id: (i) => i.number,
};
