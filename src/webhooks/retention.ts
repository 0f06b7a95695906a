import type { Store } from '../store/store.js';
import { scopeKey } from '../lib/scope-key.js';
import { Events, isSettled } from './records.js';

/**
 * payemu keeps the newest events of each Source and mode (10,000 by default): a year of
 * recurring billing raises hundreds of thousands, and the log is for looking at what just
 * happened. Older events whose delivery is settled (delivered, failed, no endpoint) are
 * removed in the transaction that raises new ones; pending and retrying events are kept.
 */
export const EVENT_RETENTION = 10_000;

export function keepRecentEvents(store: Store, limit = EVENT_RETENTION): void {
  store.beforeCommit((tx) => {
    if (tx.events.length === 0) return;
    const raised = new Map<string, number>();
    for (const e of tx.events) {
      const scope = scopeKey(e.source, e.mode);
      raised.set(scope, (raised.get(scope) ?? 0) + 1);
    }
    for (const [scope, count] of raised) {
      let excess = store.countIndex(Events, 'scope', scope) + count - limit;
      // Bounded: a log full of pending deliveries is not scanned whole on every commit.
      let budget = excess + 100;
      if (excess <= 0) continue;
      const drop = (id: string, settled: boolean) => {
        if (excess <= 0 || budget-- <= 0) return false;
        if (settled) {
          tx.delete(Events, id);
          excess--;
        }
        return true;
      };
      // An event held as written was settled then, and is not parsed to be let go.
      store.each(
        Events,
        'scope',
        scope,
        (event) => drop(event.id, isSettled(event.delivery_status)),
        (id) => drop(id, true),
      );
    }
  });
}
