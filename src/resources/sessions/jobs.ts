import type { JobKind } from '../../clock/scheduler.js';
import { Sessions, type SessionRecord } from './records.js';

/** An open session expires 24 hours after creation (no webhook). */
export const sessionExpiry: JobKind<SessionRecord> = {
  kind: 'session.expired',
  collection: Sessions,
  dueAt: (session) => (session.status === 'open' ? session.expires_at : undefined),
  run: (tx, session) => {
    tx.put(Sessions, { ...session, status: 'expired' });
  },
};
