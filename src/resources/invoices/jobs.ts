import type { JobKind } from '../../clock/scheduler.js';
import { emitInvoiceEvent } from './events.js';
import { Invoices, type InvoiceRecord } from './records.js';

/** A sent, unpaid invoice turns overdue at 00:00 UTC of the day after its due date. */
export const invoiceOverdue: JobKind<InvoiceRecord> = {
  kind: 'invoice.overdue',
  collection: Invoices,
  dueAt: (invoice) => (invoice.status === 'sent' ? invoice.due_date + 86_400_000 : undefined),
  since: (invoice) => invoice.updated_at,
  run: (tx, invoice, at) => {
    const overdue = tx.put(Invoices, { ...invoice, status: 'overdue', updated_at: at });
    emitInvoiceEvent(tx, 'invoice.overdue', overdue, at);
  },
};
