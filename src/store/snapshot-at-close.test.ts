import fs from 'node:fs';
import t from 'tap';
import { checkStore } from './doctor.js';
import { filePersistence } from './file-persistence.js';
import { encodeChanges, listSegments, segmentPath, snapshotPath } from './files.js';
import { Store } from './store.js';
import { COLLECTIONS, Things, Others, openFileStore, dump, writeHistory } from './store.test-support.js';

/** A clean close keeps the records as a snapshot read a record per line at the next start. */

t.test('a clean close after enough journal writes the snapshot: the next start reads it alone, with every record', async (t) => {
  const dir = t.testdir();
  const store = await openFileStore(t, dir, { snapshotAtCloseBytes: 1 });
  writeHistory(store, 30);
  const before = dump(store);
  await store.closeOnce();
  t.same(listSegments(dir), [], 'the segments the snapshot covers are gone');
  const text = fs.readFileSync(snapshotPath(dir), 'utf8');
  t.same(JSON.parse(text).collections.others.length, 29, 'one JSON document, as older versions read it');
  t.ok(text.split('\n').length > 58, 'a record per line');
  t.match(await checkStore(dir), { healthy: true, records: 58 });

  const again = await openFileStore(t, dir, { snapshotAtCloseBytes: 1 });
  t.same(dump(again), before);
  t.same(
    again.find(Things, 'byColor', 'purple').map((r) => r.id),
    ['t1'],
    'indexes are built from the snapshot on first use',
  );
  again.transaction((tx) => tx.put(Others, { id: 'late', v: 1 }));
  await again.closeOnce();
  const third = await openFileStore(t, dir);
  t.equal(third.get(Others, 'late')?.v, 1, 'a write after the snapshot is kept');
});

t.test('a small journal is left as it is at close (replaying it is cheap)', async (t) => {
  const dir = t.testdir();
  const store = await openFileStore(t, dir);
  writeHistory(store, 3);
  await store.closeOnce();
  t.equal(fs.existsSync(snapshotPath(dir)), false);
  t.equal(listSegments(dir).length, 1);
});

t.test('a snapshot written in one line (older versions) loads, and a close rewrites it a record per line', async (t) => {
  const dir = t.testdir();
  const old = { version: 1, covers: 1, collections: { others: [{ id: 'o1', v: 1 }], things: [{ id: 't1', color: 'red', n: 1 }] } };
  fs.writeFileSync(snapshotPath(dir), JSON.stringify(old));
  fs.writeFileSync(segmentPath(dir, 1), encodeChanges([{ collection: 'others', id: 'ignored', record: { id: 'ignored' } }]));
  fs.writeFileSync(segmentPath(dir, 2), encodeChanges([{ collection: 'others', id: 'o2', record: { id: 'o2', v: 2 } as never }]));
  const store = await openFileStore(t, dir);
  t.same(dump(store).others, [
    { id: 'o1', v: 1 },
    { id: 'o2', v: 2 },
  ]);
  t.same(
    store.find(Things, 'byColor', 'red').map((r) => r.id),
    ['t1'],
  );
  await store.closeOnce();
  t.ok(fs.readFileSync(snapshotPath(dir), 'utf8').startsWith('{"version":1,"covers":2,"collections":{\n'));
  t.same(listSegments(dir), []);
  const again = await openFileStore(t, dir);
  t.same(dump(again).others, [
    { id: 'o1', v: 1 },
    { id: 'o2', v: 2 },
  ]);
});

t.test('damage in a snapshot laid out a record per line is found and named as before', async (t) => {
  const dir = t.testdir();
  const store = await openFileStore(t, dir, { snapshotAtCloseBytes: 1 });
  writeHistory(store, 5);
  await store.closeOnce();
  const lines = fs.readFileSync(snapshotPath(dir), 'utf8').split('\n');
  lines[3] = '{"id":"t1",broken';
  fs.writeFileSync(snapshotPath(dir), lines.join('\n'));
  await t.rejects(
    new Store(COLLECTIONS, filePersistence(dir)).open(),
    /^store damaged: snapshot\.json at character \d+ is not valid JSON.*payemu doctor --data .* --repair/,
  );
  t.match(await checkStore(dir), { healthy: false, damage: [{ file: 'snapshot.json', problem: /is not valid JSON/ }] });
});
