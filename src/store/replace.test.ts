import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import type { StoredRecord } from './collection.js';
import { listSegments, snapshotPath } from './files.js';
import { indexKeysPath } from './index-keys.js';
import { memoryPersistence } from './persistence.js';
import { RawRecords } from './raw-records.js';
import { Store } from './store.js';
import { COLLECTIONS, dump, ids, openFileStore, openMemoryStore, Others, Things, writeHistory } from './store.test-support.js';

/**
 * Store.replaceAll (an import of everything: src/control/snapshot-swap.ts): every record replaced
 * by records held as bytes (RawRecords.inMemory), unparsed until read, or parsed; a file-backed
 * store writes them as its snapshot at once, and a restart reads the same.
 */

const texts = ['{"id":"t1","color":"red","tags":["a"],"n":1,"note":"é ✓ 𝄞"}', '{"id":"t2","color":"blue","n":2}', '{"id":"o1","v":10}'];

/** The records of `texts` held as bytes, with `Things` t1, t2 (t3 parsed) and `Others` o1. */
function replacement() {
  const bytes = Buffer.from(texts.join(','));
  const raw = RawRecords.inMemory(bytes, texts.length);
  let at = 0;
  const spans = texts.map((text) => {
    const start = at;
    at += Buffer.byteLength(text) + 1;
    return [start, start + Buffer.byteLength(text)] as const;
  });
  const things: (StoredRecord | number)[] = [
    raw.add('t1', spans[0]![0], spans[0]![1], false, 0),
    raw.add('t2', spans[1]![0], spans[1]![1], false, 1),
    { id: 't3', color: 'red', n: 3 } as StoredRecord,
  ];
  const others: (StoredRecord | number)[] = [raw.add('o1', spans[2]![0], spans[2]![1], false, 0)];
  const collections: [string, (StoredRecord | number)[]][] = [
    ['things', things],
    ['others', others],
  ];
  return { raw, collections };
}

const expected = {
  things: [
    { id: 't1', color: 'red', tags: ['a'], n: 1, note: 'é ✓ 𝄞' },
    { id: 't2', color: 'blue', n: 2 },
    { id: 't3', color: 'red', n: 3 },
  ],
  others: [{ id: 'o1', v: 10 }],
};

t.test('in memory: every record replaced, read from the bytes held; indexes built again', async (t) => {
  const store = await openMemoryStore();
  writeHistory(store, 6);
  t.equal(store.find(Things, 'byColor', 'red').length > 0, true, 'an index built before');
  const { raw, collections } = replacement();
  store.replaceAll(raw, collections, store.marking());
  t.same(dump(store), expected);
  t.same(ids(store.find(Things, 'byColor', 'red')), ['t1', 't3'], 'the index is of the new records');
  store.transaction((tx) => tx.put(Others, { id: 'o2', v: 20 }));
  t.equal(store.count(Others), 2);
});

t.test('not inside a transaction: canReplaceAll says so, replaceAll refuses and changes nothing', async (t) => {
  const store = await openMemoryStore();
  writeHistory(store, 3);
  const before = dump(store);
  store.transaction(() => {
    t.equal(store.canReplaceAll(), false);
    const { raw, collections } = replacement();
    t.throws(() => store.replaceAll(raw, collections, store.marking()));
  });
  t.same(dump(store), before);
  t.equal(store.canReplaceAll(), true);
});

t.test('a persistence that refuses the replacement leaves the store as it was', async (t) => {
  const refusing = {
    ...memoryPersistence(),
    replace: () => {
      throw new Error('disk full');
    },
  };
  const store = new Store(COLLECTIONS, refusing);
  await store.open();
  writeHistory(store, 3);
  const before = dump(store);
  const { raw, collections } = replacement();
  t.throws(() => store.replaceAll(raw, collections, store.marking()), /disk full/);
  t.same(dump(store), before);
});

t.test('file-backed: written as the snapshot at once, the journal before it gone; a restart reads the same, and the writes after it', async (t) => {
  const dir = t.testdir();
  const first = await openFileStore(t, dir);
  writeHistory(first, 8);
  const segments = listSegments(dir);
  const { raw, collections } = replacement();
  first.replaceAll(raw, collections, first.marking());
  t.ok(fs.existsSync(snapshotPath(dir)), 'a snapshot');
  t.ok(
    listSegments(dir).every((n) => n > segments.at(-1)!),
    'the segments it covers are deleted',
  );
  const snapshot = fs.readFileSync(snapshotPath(dir), 'utf8');
  for (const text of texts) t.ok(snapshot.includes(`\n${text}`), 'each record held is written as it was, a line of its own');
  first.transaction((tx) => tx.put(Others, { id: 'o2', v: 20 }));
  const after = dump(first);
  t.same(after, { ...expected, others: [...expected.others, { id: 'o2', v: 20 }] });
  await first.closeOnce();
  const second = await openFileStore(t, dir);
  t.same(dump(second), after, 'a restart reads the same');
});

t.test('index keys held beside the records build the indexes without parsing them', async (t) => {
  const store = await openMemoryStore();
  // t2's bytes are not JSON: parsing it would throw, so an index built from them would too.
  const bytes = Buffer.from('{"id":"t1","color":"red","n":1},{"id":"t2" not JSON}');
  const raw = RawRecords.inMemory(bytes, 2);
  const things = [raw.add('t1', 0, 31, false, 0), raw.add('t2', 32, bytes.length, false, 1)];
  raw.holdKeys('things', [
    ['red', 'blue'],
    [null, null],
  ]);
  store.replaceAll(
    raw,
    [
      ['things', things],
      ['others', []],
    ],
    store.marking(),
  );
  t.same(ids(store.find(Things, 'byColor', 'red')), ['t1']);
  t.equal(store.countIndex(Things, 'byColor', 'blue'), 1, 't2 indexed by its held key');
  t.throws(() => store.get(Things, 't2'), 'only reading it parses it');
});

t.test(
  'file-backed, while a compaction runs: it cannot replace; stopCompaction stops it (no failure reported), then it can, and a restart reads the same',
  async (t) => {
    const dir = t.testdir();
    const reported: unknown[] = [];
    const store = await openFileStore(t, dir, { compactAfterBytes: 1024, onCompaction: (result) => reported.push(result) });
    t.equal(store.stopCompaction(), undefined, 'none runs: nothing to stop');
    writeHistory(store, 40);
    t.equal(store.canReplaceAll(), false, 'a compaction runs');
    const stopped = store.stopCompaction();
    t.ok(stopped, 'it is stopped');
    await stopped;
    t.same(reported, [], 'a compaction stopped on purpose is no failure to report');
    t.equal(store.canReplaceAll(), true);
    const { raw, collections } = replacement();
    store.replaceAll(raw, collections, store.marking());
    t.same(dump(store), expected);
    await store.closeOnce();
    t.same(dump(await openFileStore(t, dir)), expected, 'a restart reads the same');
  },
);

t.test('file-backed: the index keys and due times found by the import are kept beside its snapshot; the stop leaves it, a start reads them', async (t) => {
  const dir = t.testdir();
  // As the scheduler watches its records: every tenth other is due at v seconds, 5 ms late.
  const prepare = (store: Store) =>
    store.watch(Others, 'due', (r) => r.v % 10 === 0, { of: (r) => (r.v % 10 === 0 ? [r.v * 1000, r.v * 1000 + 5] : undefined), source: 'r => r.v' });
  const first = await openFileStore(t, dir, {}, prepare);
  writeHistory(first, 4);
  const records = ['{"id":"t1","color":"red","n":1}', '{"id":"o10","v":10}', '{"id":"o11","v":11}'];
  const raw = RawRecords.inMemory(Buffer.from(records.join(',')), records.length);
  let at = 0;
  const [t1, o10, o11] = records.map((text, i) => {
    const start = at;
    at += text.length + 1;
    return raw.add(JSON.parse(text).id, start, start + text.length, i === 1, i === 0 ? 0 : i - 1);
  });
  // The keys the import's checks found: "purple" for t1 (its record says red) shows where an index took them from.
  raw.holdKeys('things', [['purple'], [null]]);
  first.replaceAll(
    raw,
    [
      ['things', [t1!]],
      ['others', [o10!, o11!]],
    ],
    first.marking(),
  );
  const written = fs.statSync(snapshotPath(dir));
  await first.closeOnce();
  const after = fs.statSync(snapshotPath(dir));
  t.same([after.ino, after.mtimeMs], [written.ino, written.mtimeMs], 'the stop left the snapshot as the import wrote it');

  const [head, ...columns] = fs.readFileSync(indexKeysPath(dir), 'utf8').trimEnd().split('\n');
  const { collections } = JSON.parse(head!) as { collections: Record<string, { at: number }> };
  t.same(Object.keys(collections), ['things', 'others due'], 'the keys of each indexed collection and the due times of each watched one');
  t.same(
    JSON.parse(columns[1]!),
    [
      [10_000, null],
      [5, null],
    ],
    "o10's due times (it was marked, and parsed for them), none for o11 (not marked: not parsed)",
  );

  const second = await openFileStore(t, dir, {}, prepare);
  t.same(ids(second.find(Things, 'byColor', 'purple')), ['t1'], "a start's index takes the keys the import found");
  const due: [string, number, number][] = [];
  second.due(Others, 'due', (id, time, runs) => due.push([id, time, runs]));
  t.same(due, [['o10', 10_000, 10_005]], 'and the due times');
});

t.test(
  'file-backed: keys that cannot be written beside the imported snapshot (a full disk) leave the import done; the records are parsed for their keys',
  async (t) => {
    const dir = t.testdir();
    const first = await openFileStore(t, dir);
    writeHistory(first, 4);
    // The keys file's temporary name taken by a directory: writing it fails, as on a full disk.
    fs.mkdirSync(path.join(dir, '.index-keys.json.tmp'));
    const { raw, collections } = replacement();
    first.replaceAll(raw, collections, first.marking());
    t.same(dump(first), expected, 'the import is done');
    t.notOk(fs.existsSync(indexKeysPath(dir)), 'no keys file');
    t.same(ids(first.find(Things, 'byColor', 'red')), ['t1', 't3'], 'an index is built from the records');
    await first.closeOnce();
    t.same(dump(await openFileStore(t, dir)), expected, 'a restart reads the same');
  },
);
