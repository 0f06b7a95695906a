import type { Mode } from '../../config/types.js';
import type { Minor } from '../../lib/money.js';
import { byScope } from '../../lib/scope-key.js';
import { collection } from '../../store/collection.js';
import { refundRecordSchema } from './record-schema.js';

/** A refund (`re_...`) of a payment; refunds complete at once in the sandbox. */
export interface RefundRecord {
  id: string;
  source: string;
  mode: Mode;
  payment_id: string;
  amount: Minor;
  reason?: string;
  status: 'completed';
  created_at: number;
}

// A data directory written before `scope` was declared keeps no keys of it beside its snapshot
// (index-keys.json is kept per set of indexes): its refunds are parsed for them at the first look-up.
export const Refunds = collection<RefundRecord>('refunds', { payment: (r) => r.payment_id, scope: byScope }, undefined, refundRecordSchema);
