import type { Mode } from '../../config/types.js';
import { collection } from '../../store/collection.js';
import { methodSessionRecordSchema } from './record-schema.js';

/** A hosted session where a customer replaces the card on file of a schedule (`cs_...`). */
export interface MethodSessionRecord {
  id: string;
  source: string;
  mode: Mode;
  /** The schedule's store id (`source:mode:reference`). */
  recurring_id: string;
  recurring_reference: string;
  success_url?: string;
  cancel_url?: string;
  status: 'open' | 'complete' | 'expired';
  created_at: number;
  expires_at: number;
}

export const MethodSessions = collection<MethodSessionRecord>('payment_method_sessions', {}, undefined, methodSessionRecordSchema);

export const methodSessionStatus = (session: MethodSessionRecord, now: number) =>
  session.status === 'open' && now >= session.expires_at ? 'expired' : session.status;
