import type { Mode } from '../config/types.js';
import { newUuid } from '../lib/ids.js';
import type { Transaction } from '../store/store.js';
import { Events } from './records.js';

/**
 * Raises a domain event inside a transaction: the event record (with its pending delivery) is
 * written with the change itself, and the bus hears of it once both are on disk. Any name and
 * data: the engine knows no event. Each family's emitter (src/resources/common/event-adds.ts)
 * types its events' data by their schemas.
 */
export function raiseEvent(tx: Transaction, event: { name: string; source: string; mode: Mode; data: Record<string, unknown> }, at: number): string {
  const id = newUuid();
  const data = event.data;
  // Lean (see EventRecord): no copy of the body or the reference, no attempt log yet.
  tx.put(Events, {
    id,
    source: event.source,
    mode: event.mode,
    event: event.name,
    data,
    created_at: at,
    delivery_status: 'pending',
    next_attempt_at: at,
  });
  tx.emit({ id, name: event.name, source: event.source, mode: event.mode, data, at });
  return id;
}
