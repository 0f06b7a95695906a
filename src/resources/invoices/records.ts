import type { Mode } from '../../config/types.js';
import type { Minor } from '../../lib/money.js';
import { collection } from '../../store/collection.js';
import { byScope } from '../../lib/scope-key.js';
import { invoiceRecordSchema } from './record-schema.js';

export type InvoiceStatus = 'draft' | 'sent' | 'paid' | 'overdue';

export interface InvoiceItem {
  description: string;
  quantity: number;
  unit_price: Minor;
}

/** An invoice (`inv_...`); money in minor units, `due_date` at 00:00 UTC. */
export interface InvoiceRecord {
  id: string;
  source: string;
  mode: Mode;
  /** `INV-000001`, per Source and mode. */
  number: string;
  status: InvoiceStatus;
  customer_name: string;
  customer_email: string;
  customer_address: string | null;
  currency: string;
  due_date: number;
  notes: string | null;
  terms: string | null;
  discount: Minor;
  /** The rate applied, fixed when the invoice is created or updated: an explicit `tax_rate`,
   * else the team's rate with `apply_tax`, else 0. */
  tax_rate: number;
  apply_tax: boolean;
  metadata: Record<string, unknown>;
  items: InvoiceItem[];
  sent_at: number | null;
  paid_at: number | null;
  payment_id: string | null;
  created_at: number;
  updated_at: number;
}

/** The counter of a Source and mode's invoice numbers (`nextCounter` name); a reset of the scope
 * removes it, so numbering starts again at INV-000001. */
export const INVOICE_COUNTER_PREFIX = 'invoices:';
export const invoiceCounter = (source: string, mode: string) => `${INVOICE_COUNTER_PREFIX}${source}:${mode}`;

export const Invoices = collection<InvoiceRecord>('invoices', { scope: byScope }, undefined, invoiceRecordSchema);
