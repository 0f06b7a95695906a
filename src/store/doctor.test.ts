import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { checkStore, repairStore } from './doctor.js';
import { filePersistence } from './file-persistence.js';
import { encodeChanges, segmentPath, snapshotPath } from './files.js';
import { Store } from './store.js';
import { COLLECTIONS, Others, ids, lastSegment, openFileStore, writeHistory, type Other } from './store.test-support.js';

/** The doctor's check and repair on the store's files (the CLI's own test: test/doctor.test.ts). */

const line = (id: string, v: number) => encodeChanges([{ collection: 'others', id, record: { id, v } as Other }]);

t.test('a healthy store: no damage, nothing to repair', async (t) => {
  const dir = t.testdir();
  const store = await openFileStore(t, dir);
  writeHistory(store, 4);
  await store.closeOnce();
  const checkup = await checkStore(dir);
  t.match(checkup, { healthy: true, damage: [], notes: [], records: 6 });
  const repair = await repairStore(dir);
  t.same(repair.backups, []);
  t.same(repair.dropped, []);
  t.same(
    fs.readdirSync(dir).filter((name) => name.includes('damaged')),
    [],
  );
});

t.test('a line that is JSON but not a list of changes is damage: start names it, repair drops that line only', async (t) => {
  const dir = t.testdir();
  fs.writeFileSync(segmentPath(dir, 1), `${line('o1', 1)}{"not":"changes"}\n[["others","o9",7]]\n${line('o2', 2)}`);
  await t.rejects(new Store(COLLECTIONS, filePersistence(dir)).open(), /^store damaged: journal-000001\.ndjson line 2 \(byte \d+\) is not a list of changes/);
  const checkup = await checkStore(dir);
  t.match(checkup.damage, [
    { file: 'journal-000001.ndjson', line: 2, problem: 'is not a list of changes', excerpt: '{"not":"changes"}' },
    { line: 3, problem: /not \[collection, id, record or null\]/ },
  ]);
  const repair = await repairStore(dir);
  t.equal(repair.dropped.length, 2);
  t.same(repair.backups, [{ file: 'journal-000001.ndjson', backup: 'journal-000001.ndjson.damaged-1' }]);
  const store = await openFileStore(t, dir);
  t.same(ids([...store.all(Others)]).sort(), ['o1', 'o2']);
});

t.test('a torn line in an older segment is damage; repair keeps the segments around it', async (t) => {
  const dir = t.testdir();
  fs.writeFileSync(segmentPath(dir, 1), `${line('o1', 1)}[["others","o2"`);
  fs.writeFileSync(segmentPath(dir, 2), line('o3', 3));
  t.match(await checkStore(dir), { healthy: false, damage: [{ file: 'journal-000001.ndjson', line: 2, problem: 'is cut short' }] });
  await repairStore(dir);
  t.equal(fs.readFileSync(segmentPath(dir, 1), 'utf8'), line('o1', 1));
  const store = await openFileStore(t, dir);
  t.same(ids([...store.all(Others)]).sort(), ['o1', 'o3']);
});

t.test('a snapshot that is not JSON: start names it; repair keeps what the journal holds', async (t) => {
  const dir = t.testdir();
  fs.writeFileSync(snapshotPath(dir), '{"version":1,"covers":0,"collections":{"others":[{"id":"o0","v":0}');
  fs.writeFileSync(segmentPath(dir, 1), line('o1', 1));
  await t.rejects(
    new Store(COLLECTIONS, filePersistence(dir)).open(),
    /^store damaged: snapshot\.json .*is not valid JSON .*payemu doctor --data \S+ --repair$/,
  );
  const repair = await repairStore(dir);
  t.match(repair.dropped, [{ file: 'snapshot.json', problem: /not valid JSON.*none of its records can be read/ }]);
  t.ok(fs.existsSync(`${snapshotPath(dir)}.damaged-1`), 'the snapshot is kept aside');
  const store = await openFileStore(t, dir);
  t.same(ids([...store.all(Others)]), ['o1']);
});

t.test('a snapshot record without an id: that record is dropped, the rest kept', async (t) => {
  const dir = t.testdir();
  fs.writeFileSync(snapshotPath(dir), JSON.stringify({ version: 1, covers: 1, collections: { others: [{ id: 'o0', v: 0 }, { v: 9 }, { id: 'o2', v: 2 }] } }));
  fs.writeFileSync(segmentPath(dir, 1), line('old', 1)); // folded into the snapshot already: not read
  fs.writeFileSync(segmentPath(dir, 2), line('o3', 3));
  await t.rejects(
    new Store(COLLECTIONS, filePersistence(dir)).open(),
    /^store damaged: snapshot\.json collection "others" record 2 is not a record with an id/,
  );
  await repairStore(dir);
  const store = await openFileStore(t, dir);
  t.same(ids([...store.all(Others)]).sort(), ['o0', 'o2', 'o3']);
});

t.test('damage found again after a repair: the next backup gets the next number', async (t) => {
  const dir = t.testdir();
  const store = await openFileStore(t, dir);
  writeHistory(store, 3);
  await store.closeOnce();
  for (const n of [1, 2]) {
    fs.appendFileSync(lastSegment(dir), 'garbage\n');
    const repair = await repairStore(dir);
    t.same(repair.backups, [{ file: path.basename(lastSegment(dir)), backup: `${path.basename(lastSegment(dir))}.damaged-${n}` }]);
  }
  t.match(await checkStore(dir), { healthy: true });
});
