import type { ListSpec } from '../../http/list-query.js';
import { invoiceAttributes as attributesSchema } from '../../schemas/invoices.js';
import { attributeNames } from '../../schemas/wire.js';
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
  attributes: attributeNames(attributesSchema),
  id: (i) => i.number,
};
