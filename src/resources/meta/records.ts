import type { ClockState } from '../../clock/clock.js';
import { collection } from '../../store/collection.js';
import type { Transaction } from '../../store/store.js';

/** Emulator-wide records: the clock and the id counters. */
export type MetaRecord = { id: 'clock'; clock: ClockState } | { id: 'counters'; payments: number };

export const Meta = collection<MetaRecord>('meta');

/** The next integer payment id (increasing per store, DESIGN.md section 4). */
export function nextPaymentId(tx: Transaction): number {
  const counters = tx.get(Meta, 'counters') as Extract<MetaRecord, { id: 'counters' }> | undefined;
  const next = (counters?.payments ?? 0) + 1;
  tx.put(Meta, { id: 'counters', payments: next });
  return next;
}
