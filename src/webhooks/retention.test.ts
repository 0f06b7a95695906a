import t from 'tap';
import { memoryPersistence } from '../store/persistence.js';
import { Store, type Transaction } from '../store/store.js';
import { type DeliveryStatus, Events, type EventRecord } from './records.js';
import { keepRecentEvents } from './retention.js';

/** An event raised in `tx` (as raiseEvent does), already settled as `status`. */
function raise(tx: Transaction, id: string, source: string, status: DeliveryStatus): void {
  const event: EventRecord = {
    id,
    source,
    mode: 'test',
    event: 'payment.completed',
    data: {},
    created_at: 0,
    delivery_status: status,
    next_attempt_at: status === 'pending' || status === 'retrying' ? 0 : null,
  };
  tx.put(Events, event);
  tx.emit({ id, name: event.event, source, mode: 'test', data: {}, at: 0 });
}

const ids = (store: Store, source: string) => [...store.all(Events)].filter((e) => e.source === source).map((e) => e.id);

t.test('the newest events of each Source and mode are kept; older settled ones go in the transaction that raises new ones', async (t) => {
  const store = new Store([Events] as never, memoryPersistence());
  keepRecentEvents(store, 3);
  store.transaction((tx) => {
    for (const id of ['a1', 'a2', 'a3', 'a4']) raise(tx, id, 'acme', 'no_endpoint');
  });
  t.same(ids(store, 'acme'), ['a1', 'a2', 'a3', 'a4'], 'raised in the same transaction: none was stored before it, none goes');
  store.transaction((tx) => raise(tx, 'a5', 'acme', 'delivered'));
  t.same(ids(store, 'acme'), ['a3', 'a4', 'a5'], 'the two oldest go');

  // Pending and retrying deliveries stay, whatever their age; the oldest settled ones go instead.
  store.transaction((tx) => {
    raise(tx, 'p1', 'acme', 'pending');
    raise(tx, 'r1', 'acme', 'retrying');
  });
  t.same(ids(store, 'acme'), ['a5', 'p1', 'r1']);
  store.transaction((tx) => raise(tx, 'a6', 'acme', 'failed'));
  t.same(ids(store, 'acme'), ['p1', 'r1', 'a6'], 'the only settled one older than the new one goes');
  store.transaction((tx) => raise(tx, 'a7', 'acme', 'no_endpoint'));
  t.same(ids(store, 'acme'), ['p1', 'r1', 'a7'], 'pending ones are skipped, not counted as kept room');

  // Another Source has its own count; a commit raising nothing removes nothing.
  store.transaction((tx) => {
    for (const id of ['b1', 'b2', 'b3']) raise(tx, id, 'other', 'no_endpoint');
  });
  t.same(ids(store, 'other'), ['b1', 'b2', 'b3']);
  t.same(ids(store, 'acme'), ['p1', 'r1', 'a7'], "another Source's events do not push these out");
  store.transaction((tx) => tx.delete(Events, 'b1'));
  t.same(ids(store, 'other'), ['b2', 'b3']);
});
