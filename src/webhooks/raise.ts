import type { EventName } from '../bus/events.js';
import type { Mode } from '../config/types.js';
import { newUuid } from '../lib/ids.js';
import type { Transaction } from '../store/store.js';
import { Events, type Attempt } from './records.js';

/** One empty attempt log shared by every new event (the log is copied, never changed in place). */
const NO_ATTEMPTS = Object.freeze([]) as unknown as Attempt[];

/**
 * Raises a domain event inside a transaction: the event record (with its pending delivery) is
 * written with the change itself, and the bus hears of it once both are on disk.
 */
export function raiseEvent(tx: Transaction, event: { name: EventName; source: string; mode: Mode; data: Record<string, unknown> }, at: number): string {
  const id = newUuid();
  const reference = typeof event.data.reference === 'string' ? event.data.reference : null;
  tx.put(Events, {
    id,
    source: event.source,
    mode: event.mode,
    event: event.name,
    payload: { event: event.name, data: event.data },
    reference,
    created_at: at,
    delivery_status: 'pending',
    attempts: NO_ATTEMPTS,
    cycle_attempts: 0,
    next_attempt_at: at,
  });
  tx.emit({ id, name: event.name, source: event.source, mode: event.mode, data: event.data, at });
  return id;
}
