import type { Minor } from '../../lib/money.js';
import { collection } from '../../store/collection.js';
import type { OwnedRecord } from '../common/owned.js';
import { referenceKey } from '../common/references.js';
import { sessionRecordSchema } from './record-schema.js';

export type SessionStatus = 'open' | 'complete' | 'expired';
export type SessionPaymentStatus = 'unpaid' | 'paid' | 'authorized' | 'failed';

export interface TaxBreakdown {
  amount: Minor;
  lines?: { name: string; rate?: number; amount: Minor }[];
}

/** A checkout session. Money in minor units, times in epoch ms; absent optionals are left out. */
export interface SessionRecord extends OwnedRecord {
  reference: string;
  amount: Minor;
  currency: string;
  description?: string;
  success_url?: string;
  cancel_url?: string;
  customer_email?: string;
  customer_name?: string;
  metadata?: Record<string, unknown>;
  subtotal?: Minor;
  discount?: Minor;
  shipping?: Minor;
  tax?: TaxBreakdown;
  capture_method: 'automatic' | 'manual';
  save_payment_method: boolean;
  status: SessionStatus;
  payment_status: SessionPaymentStatus;
  created_at: number;
  expires_at: number;
  completed_at?: number;
  /** The payment link this checkout was opened from. */
  payment_link_id?: string;
}

export const SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000;

export const Sessions = collection<SessionRecord>(
  'sessions',
  {
    reference: (s) => referenceKey(s.mode, s.reference),
  },
  undefined,
  sessionRecordSchema,
);

/** The status as of `now`: an open session past `expires_at` is expired even before the
 * scheduler's next tick has recorded it. */
export function sessionStatus(session: SessionRecord, now: number): SessionStatus {
  return session.status === 'open' && now >= session.expires_at ? 'expired' : session.status;
}
