import t from 'tap';
import { filePersistence } from '../store/file-persistence.js';
import { memoryPersistence } from '../store/persistence.js';
import { Store, type Transaction } from '../store/store.js';
import { type DeliveryStatus, Events, type EventRecord, isSettled } from './records.js';
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

t.test('file-backed, settled events are held as written: the cap lets them go unparsed, and reads and a restart find them', async (t) => {
  const dir = t.testdir();
  const open = async () => {
    const store = new Store([Events] as never, filePersistence(dir, { snapshotAtCloseBytes: 1 }));
    keepRecentEvents(store, 3);
    // As the dispatcher has them held.
    store.holdWhen(Events, (event) => isSettled(event.delivery_status));
    await store.open();
    return store;
  };
  const store = await open();
  store.transaction((tx) => {
    for (const id of ['a1', 'a2', 'a3', 'a4']) raise(tx, id, 'acme', 'no_endpoint');
    raise(tx, 'b1', 'other', 'delivered');
    raise(tx, 'p1', 'acme', 'pending');
  });
  t.same(
    ['a1', 'a2', 'a3', 'a4', 'b1', 'p1'].map((id) => store.isHeld(Events, id)),
    [true, true, true, true, true, false],
    'settled ones are held; a pending one, which its delivery reads, is not',
  );
  // Two Sources: the scope index keeps a key per record, which a held one's deletion takes from its held keys.
  store.transaction((tx) => raise(tx, 'a5', 'acme', 'failed'));
  t.equal(store.countIndex(Events, 'scope', 'acme:test'), 3, 'the cap let the three oldest settled ones go');
  t.ok(store.isHeld(Events, 'a4'), 'without parsing those it kept');
  t.same(ids(store, 'acme'), ['a4', 'p1', 'a5']);
  t.same(ids(store, 'other'), ['b1']);
  t.same(store.get(Events, 'a4')?.delivery_status, 'no_endpoint', 'a held event reads back as written');
  t.notOk(store.isHeld(Events, 'a4'), 'and is kept parsed once read');
  store.transaction((tx) => raise(tx, 'a6', 'acme', 'no_endpoint'));
  await store.close();

  const again = await open();
  t.teardown(() => again.close());
  t.same(ids(again, 'acme'), ['p1', 'a5', 'a6'], 'a restart reads what the snapshot and journal hold');
  t.same(
    again.find(Events, 'scope', 'other:test').map((e) => e.id),
    ['b1'],
  );
  // A pending event delivered: rewritten in part in the journal, and held as the whole record.
  const pending = again.get(Events, 'p1')!;
  again.transaction((tx) => tx.put(Events, { ...pending, delivery_status: 'delivered', next_attempt_at: null }));
  t.ok(again.isHeld(Events, 'p1'), 'an event settled by a later write is held too');
  t.match(again.get(Events, 'p1'), { id: 'p1', delivery_status: 'delivered', next_attempt_at: null });
});
