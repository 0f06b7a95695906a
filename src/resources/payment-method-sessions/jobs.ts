import type { JobKind } from '../../clock/scheduler.js';
import { MethodSessions, type MethodSessionRecord } from './records.js';

/** A card-update session expires 24 hours after creation, like a checkout session. */
export const methodSessionExpiry: JobKind<MethodSessionRecord> = {
  kind: 'payment_method_session.expired',
  collection: MethodSessions,
  dueAt: (session) => (session.status === 'open' ? session.expires_at : undefined),
  run: (tx, session) => {
    tx.put(MethodSessions, { ...session, status: 'expired' });
  },
};
