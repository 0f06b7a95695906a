import type { Mode } from '../../config/types.js';
import type { Minor } from '../../lib/money.js';
import { collection } from '../../store/collection.js';
import type { Frequency } from './dates.js';
import { byScope } from '../../lib/scope-key.js';
import { recurringRecordSchema } from './record-schema.js';

export type RecurringStatus = 'active' | 'paused' | 'suspended' | 'cancelled' | 'completed';

/**
 * A recurring schedule. Dates are epoch ms at 00:00 UTC. Period k of the cadence falls on
 * `anchor` + k intervals; `next_billing_date` is the next regular date, or a retry's date.
 */
export interface RecurringRecord {
  /** `source:mode:reference` */
  id: string;
  source: string;
  mode: Mode;
  reference: string;
  payment_method: string;
  amount: Minor;
  currency: string;
  frequency: Frequency;
  interval_count: number;
  /** The cadence's period 0 (the start date, or the date PATCH last re-anchored it to). */
  anchor: number;
  start_date: number;
  end_date: number | null;
  next_billing_date: number | null;
  status: RecurringStatus;
  retry_count: number;
  /** Number of the next charge (its payment reference is `<reference>-<sequence>`). */
  sequence: number;
  customer_email?: string;
  customer_name?: string;
  metadata: Record<string, unknown>;
  apply_tax: boolean;
  /** Secret part of `manage_url`. */
  manage_token: string;
  /** The payment link it came from, if any. */
  payment_link_id?: string;
  cancelled_at?: number;
  created_at: number;
  updated_at: number;
}

export const recurringId = (source: string, mode: Mode, reference: string) => `${source}:${mode}:${reference}`;

export const Recurring = collection<RecurringRecord>(
  'recurring_payments',
  {
    scope: byScope,
    manage: (r) => r.manage_token,
  },
  undefined,
  recurringRecordSchema,
);
