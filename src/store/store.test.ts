import fs from 'node:fs';
import t from 'tap';
import { collection, type Change } from './collection.js';
import type { RaisedEvent } from './store.js';
import {
  type Thing,
  type Other,
  Things,
  Others,
  openMemoryStore,
  openFileStore,
  dump,
  ids,
  journalBytes,
  lastSegment,
  writeHistory,
} from './store.test-support.js';

t.test('a transaction commits all its writes at once, and reads inside it see its own writes', async (t) => {
  const store = await openMemoryStore();
  const result = store.transaction((tx) => {
    tx.put(Things, { id: 'a', color: 'red', n: 1 });
    tx.put(Others, { id: 'b', v: 2 });
    t.equal(tx.get(Things, 'a')?.n, 1, 'the transaction reads its own write');
    t.equal(store.get(Things, 'a'), undefined, 'the store does not see it before the commit');
    tx.put(Things, { id: 'a', color: 'red', n: 3 });
    return 'done';
  });
  t.equal(result, 'done', "the transaction's result is returned");
  t.same(store.get(Things, 'a'), { id: 'a', color: 'red', n: 3 }, 'the last write of a record wins');
  t.same(store.get(Others, 'b'), { id: 'b', v: 2 });
  t.equal(store.count(Things as never), 1);
  t.equal(store.count(Others as never), 1);

  // On disk, one transaction is one journal line, whatever it wrote.
  const dir = t.testdir();
  const file = await openFileStore(t, dir);
  const before = fs.readFileSync(lastSegment(dir), 'utf8');
  file.transaction((tx) => {
    tx.put(Things, { id: 'a', color: 'red', n: 1 });
    tx.put(Things, { id: 'b', color: 'red', n: 2 });
    tx.delete(Others, 'c');
  });
  const added = fs.readFileSync(lastSegment(dir), 'utf8').slice(before.length);
  t.equal(added.split('\n').length, 2, 'one line');
  t.same(JSON.parse(added), [
    ['things', 'a', { id: 'a', color: 'red', n: 1 }],
    ['things', 'b', { id: 'b', color: 'red', n: 2 }],
    ['others', 'c', null],
  ]);
});

t.test('a throwing transaction changes nothing and writes nothing to the journal', async (t) => {
  const dir = t.testdir();
  const store = await openFileStore(t, dir);
  writeHistory(store, 5);
  const before = dump(store);
  const bytes = journalBytes(dir);
  const seen: unknown[] = [];
  store.onCommit((changes, events) => seen.push({ changes, events }));

  t.throws(
    () =>
      store.transaction((tx) => {
        tx.put(Things, { id: 'new', color: 'red', n: 1 });
        tx.put(Things, { ...tx.get(Things, 't0')!, color: 'black' });
        tx.delete(Others, 'o0');
        tx.emit({ id: 'ev1', name: 'thing.made', source: 'acme', mode: 'test', data: {}, at: 0 });
        throw new Error('rule broken');
      }),
    /rule broken/,
  );

  t.same(dump(store), before, 'no record changed');
  t.same(ids(store.find(Things, 'byColor', 'black')), [], 'no index changed');
  t.same(ids(store.find(Things, 'byColor', 'red')), ids(before.things.filter((r) => r.color === 'red')));
  t.equal(journalBytes(dir), bytes, 'the journal did not grow');
  t.same(seen, [], 'no listener was told');

  await store.closeOnce();
  const reopened = await openFileStore(t, dir);
  t.same(dump(reopened), before, 'a reopen holds the same records');
});

t.test('index lookups: single and multi-key indexes follow puts, updates and deletes', async (t) => {
  const store = await openMemoryStore();
  store.transaction((tx) => {
    tx.put(Things, { id: 'a', color: 'red', tags: ['x', 'y'], n: 1 });
    tx.put(Things, { id: 'b', color: 'red', tags: ['y'], n: 2 });
    tx.put(Things, { id: 'c', color: 'blue', n: 3 });
  });
  t.same(ids(store.find(Things, 'byColor', 'red')), ['a', 'b'], 'in insertion order');
  t.same(ids(store.find(Things, 'byColor', 'blue')), ['c']);
  t.same(ids(store.find(Things, 'byColor', 'green')), []);
  t.same(ids(store.find(Things, 'byTag', 'y')), ['a', 'b'], 'a record with an array key is under each key');
  t.same(ids(store.find(Things, 'byTag', 'x')), ['a']);

  store.transaction((tx) => tx.put(Things, { id: 'a', color: 'blue', tags: ['x'], n: 1 }));
  t.same(ids(store.find(Things, 'byColor', 'red')), ['b'], 'an update leaves its old key');
  t.same(ids(store.find(Things, 'byColor', 'blue')), ['c', 'a'], 'and joins its new one');
  t.same(ids(store.find(Things, 'byTag', 'y')), ['b'], 'a dropped array key is left');

  store.transaction((tx) => tx.delete(Things, 'b'));
  t.same(ids(store.find(Things, 'byColor', 'red')), []);
  t.same(ids(store.find(Things, 'byTag', 'y')), []);
  t.throws(() => store.find(Things, 'nope', 'x'), /no index nope/, 'an unknown index is an error');
  t.throws(() => store.get(collection<Thing>('undeclared'), 'a'), /unknown collection undeclared/);
});

t.test("Transaction.find lays the transaction's writes over the committed records", async (t) => {
  const store = await openMemoryStore();
  store.transaction((tx) => {
    tx.put(Things, { id: 'a', color: 'red', n: 1 });
    tx.put(Things, { id: 'b', color: 'red', n: 2 });
    tx.put(Things, { id: 'c', color: 'blue', n: 3 });
  });
  store.transaction((tx) => {
    tx.put(Things, { id: 'd', color: 'red', n: 4 }); // new, matching
    tx.put(Things, { id: 'a', color: 'green', n: 1 }); // moved away
    tx.put(Things, { id: 'c', color: 'red', n: 30 }); // moved in
    tx.put(Things, { id: 'b', color: 'red', n: 20 }); // updated, same key
    tx.delete(Things, 'b');
    tx.put(Things, { id: 'b2', color: 'red', n: 5 });
    tx.delete(Things, 'b2'); // written then deleted in the same transaction
    tx.put(Others, { id: 'red', v: 0 }); // another collection: ignored
    const red = tx.find(Things, 'byColor', 'red');
    t.same(ids(red).sort(), ['c', 'd'], 'committed, new, moved and deleted records as the transaction sees them');
    t.equal(red.find((r) => r.id === 'c')?.n, 30, 'with their new values');
    t.same(ids(tx.find(Things, 'byColor', 'green')), ['a']);
    t.same(ids(store.find(Things, 'byColor', 'red')), ['a', 'b'], 'the store still shows the committed state');
    t.equal(tx.get(Things, 'b'), undefined, 'a deleted record reads as missing');
  });
  t.same(ids(store.find(Things, 'byColor', 'red')).sort(), ['c', 'd']);
  t.same(ids(store.find(Things, 'byColor', 'green')), ['a']);
  t.equal(store.get(Things, 'b2'), undefined);
});

t.test("a transaction's own index: first-written order, rewrites keep their place, savepoints roll it back", async (t) => {
  const store = await openMemoryStore();
  store.transaction((tx) => {
    tx.put(Things, { id: 'x', color: 'red', n: 1 });
    tx.put(Things, { id: 'y', color: 'red', n: 2 });
    tx.put(Things, { id: 'x', color: 'red', n: 3 }); // rewritten before any look-up
    t.same(ids(tx.find(Things, 'byColor', 'red')), ['x', 'y'], 'built late: in the order first written');
    tx.put(Things, { id: 'y', color: 'red', n: 4 }); // rewritten after: same key, same place
    tx.put(Things, { id: 'z', color: 'red', n: 5 });
    t.same(ids(tx.find(Things, 'byColor', 'red')), ['x', 'y', 'z']);
    t.throws(() =>
      store.transaction((inner) => {
        inner.put(Things, { id: 'x', color: 'blue', n: 6 });
        inner.delete(Things, 'z');
        t.same(ids(inner.find(Things, 'byColor', 'red')), ['y']);
        throw new Error('undo');
      }),
    );
    t.same(ids(tx.find(Things, 'byColor', 'red')).sort(), ['x', 'y', 'z'], 'the savepoint took its writes back out');
    t.same(ids(tx.find(Things, 'byColor', 'blue')), []);
    t.equal(tx.get(Things, 'x')?.n, 3);
  });
  t.same(ids(store.find(Things, 'byColor', 'red')), ['x', 'y', 'z'], 'committed in the same order');
});

t.test('delete removes a record (a missing one too, harmlessly) and clear empties what the filter selects', async (t) => {
  const dir = t.testdir();
  const store = await openFileStore(t, dir);
  writeHistory(store, 6);
  t.equal(store.get(Things, 't2'), undefined, 'deleted in the history');
  store.transaction((tx) => {
    tx.delete(Things, 't0');
    tx.delete(Things, 'never-existed');
  });
  t.equal(store.get(Things, 't0'), undefined);
  t.equal(store.count(Things as never), 4);
  t.same(ids(store.find(Things, 'byColor', 'red')), ['t3'], 't0 left its index');

  t.equal(
    store.clear((record, name) => name === 'others' && (record as Other).v >= 30),
    2,
    'o4 and o5 (o3 is already gone)',
  );
  t.same(ids([...store.all(Others)]).sort(), ['o0', 'o1', 'o2']);
  const before = dump(store);
  await store.closeOnce();
  const reopened = await openFileStore(t, dir);
  t.same(dump(reopened), before, 'deletes and clears are durable');
  t.equal(reopened.clear(), 7, 'clear() empties everything');
  t.equal(reopened.count(Things as never) + reopened.count(Others as never), 0);
});

t.test('onCommit listeners get the changes and the events, after the records are applied', async (t) => {
  const store = await openMemoryStore();
  const calls: { changes: readonly Change[]; events: readonly RaisedEvent[]; visible: boolean }[] = [];
  const stop = store.onCommit((changes, events) => calls.push({ changes, events, visible: store.get(Things, 'a') !== undefined }));
  const event: RaisedEvent = { id: 'ev1', name: 'thing.made', source: 'acme', mode: 'test', data: { id: 'a' }, at: 0 };

  store.transaction((tx) => {
    tx.put(Things, { id: 'a', color: 'red', n: 1 });
    tx.delete(Others, 'x');
    tx.emit(event);
  });
  t.equal(calls.length, 1);
  t.same(calls[0]!.changes, [
    { collection: 'things', id: 'a', record: { id: 'a', color: 'red', n: 1 } },
    { collection: 'others', id: 'x', record: null },
  ]);
  t.same(calls[0]!.events, [event]);
  t.equal(calls[0]!.visible, true, 'the listener already sees the committed record');

  store.transaction((tx) => tx.emit({ ...event, name: 'only.event' }));
  t.equal(calls.length, 2, 'a transaction with events but no writes is reported');
  t.same(calls[1]!.changes, []);
  store.transaction(() => undefined);
  t.equal(calls.length, 2, 'an empty transaction is not');

  stop();
  store.transaction((tx) => tx.put(Things, { id: 'b', color: 'red', n: 2 }));
  t.equal(calls.length, 2, 'an unsubscribed listener hears nothing more');
});

t.test('a record deleted and written again in one transaction goes last, as two transactions would leave it, after a restart too', async (t) => {
  for (const snapshotAtCloseBytes of [1e9, 1]) {
    const dir = t.testdir();
    const red = (id: string, n: number): Thing => ({ id, color: 'red', n });
    const order = (store: { all: typeof memory.all; find: typeof memory.find }) => [ids([...store.all(Things)]), ids(store.find(Things, 'byColor', 'red'))];
    const memory = await openMemoryStore();
    const store = await openFileStore(t, dir, { snapshotAtCloseBytes });
    for (const s of [memory, store]) {
      s.transaction((tx) => {
        for (const id of ['a', 'b', 'c', 'd']) tx.put(Things, red(id, 1));
      });
      s.transaction((tx) => {
        tx.delete(Things, 'a');
        tx.put(Things, red('a', 2));
        t.same(ids(tx.find(Things, 'byColor', 'red')), ['b', 'c', 'd', 'a'], 'a look-up inside the transaction finds it last');
        // Written again after that: still last.
        tx.delete(Things, 'b');
        tx.put(Things, red('b', 2));
        tx.put(Things, red('b', 3));
      });
      t.same(
        order(s),
        [
          ['c', 'd', 'a', 'b'],
          ['c', 'd', 'a', 'b'],
        ],
        'committed last, in the map and in its index',
      );
      s.transaction((tx) => {
        tx.put(Things, red('e', 1));
        t.throws(() =>
          s.transaction(() => {
            tx.delete(Things, 'c');
            tx.put(Things, red('c', 2));
            throw new Error('rolled back');
          }),
        );
      });
      t.same(
        order(s),
        [
          ['c', 'd', 'a', 'b', 'e'],
          ['c', 'd', 'a', 'b', 'e'],
        ],
        'a rolled-back savepoint moves nothing',
      );
      t.same(s.get(Things, 'b'), red('b', 3));
    }
    await store.closeOnce();
    const again = await openFileStore(t, dir, { snapshotAtCloseBytes });
    t.same(
      order(again),
      [
        ['c', 'd', 'a', 'b', 'e'],
        ['c', 'd', 'a', 'b', 'e'],
      ],
      `after a restart (${snapshotAtCloseBytes === 1 ? 'from the snapshot' : 'the journal replayed'})`,
    );
    t.same(again.get(Things, 'b'), red('b', 3));
  }
});
