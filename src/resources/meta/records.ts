import type { ClockState } from '../../clock/clock.js';
import { collection } from '../../store/collection.js';
import type { Transaction } from '../../store/store.js';
import { metaRecordSchema } from './record-schema.js';

/** Emulator-wide records: the clock, counters (`counter:<name>`), and a named namespace's birth (virtual epoch ms). */
export type MetaRecord = { id: 'clock'; clock: ClockState } | { id: 'namespace'; created_at: number } | { id: `counter:${string}`; value: number };

export const Meta = collection<MetaRecord>('meta', {}, undefined, metaRecordSchema);

// Record ids of the counters, made once: a payment id is drawn for every charge.
const counterIds = new Map<string, `counter:${string}`>();

/** The next value of a counter (1, 2, 3, ...), kept in the store. */
export function nextCounter(tx: Transaction, name: string): number {
  let id = counterIds.get(name);
  if (id === undefined) counterIds.set(name, (id = `counter:${name}`));
  const current = tx.get(Meta, id) as Extract<MetaRecord, { value: number }> | undefined;
  const next = (current?.value ?? 0) + 1;
  tx.put(Meta, { id, value: next });
  return next;
}

/** The next integer payment id (increasing per store, never reused, not even after a reset). */
export const nextPaymentId = (tx: Transaction) => nextCounter(tx, 'payments');
