import type { JobKind } from '../../clock/scheduler.js';
import type { Collection, StoredRecord } from '../../store/collection.js';

/** An open session (a checkout, a card update) turns `expired` at its `expires_at`, with no webhook. */
export function openUntilExpiry<T extends StoredRecord & { status: string; expires_at: number }>(kind: string, collection: Collection<T>): JobKind<T> {
  return {
    kind,
    collection,
    dueAt: (record) => (record.status === 'open' ? record.expires_at : undefined),
    run: (tx, record) => {
      tx.put(collection, { ...record, status: 'expired' });
    },
  };
}
