import type { EventName } from '../bus/events.js';
import type { Mode } from '../config/types.js';
import { newUuid } from '../lib/ids.js';
import type { Transaction } from '../store/store.js';
import type { EventData } from '../types.js';
import { Events, type Attempt } from './records.js';

/** One empty attempt log shared by every new event (the log is copied, never changed in place). */
const NO_ATTEMPTS = Object.freeze([]) as unknown as Attempt[];

/**
 * Raises a domain event inside a transaction: the event record (with its pending delivery) is
 * written with the change itself, and the bus hears of it once both are on disk.
 */
export function raiseEvent<N extends EventName>(tx: Transaction, event: { name: N; source: string; mode: Mode; data: EventData<N> }, at: number): string {
  const id = newUuid();
  const data: EventData = event.data;
  const reference = typeof data.reference === 'string' ? data.reference : null;
  tx.put(Events, {
    id,
    source: event.source,
    mode: event.mode,
    event: event.name,
    payload: { event: event.name, data },
    reference,
    created_at: at,
    delivery_status: 'pending',
    attempts: NO_ATTEMPTS,
    cycle_attempts: 0,
    next_attempt_at: at,
  });
  tx.emit({ id, name: event.name, source: event.source, mode: event.mode, data, at });
  return id;
}
