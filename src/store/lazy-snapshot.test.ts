import fs from 'node:fs';
import { crc32 } from 'node:zlib';
import t, { type Test } from 'tap';
import { filePersistence } from './file-persistence.js';
import { snapshotPath } from './files.js';
import { Store } from './store.js';
import { COLLECTIONS, Others, Things, dump, openFileStore, putOthers, type Other } from './store.test-support.js';

/**
 * A start leaves the snapshot's records unparsed until they are read, and finds the records a
 * watch's test may pass from the marks of the clean stop (docs/storage.md): what a reader of the
 * store sees is the same as when every record was parsed at start.
 */

const due = (record: Other) => record.v % 10 === 0;

/** A file store whose `others` are watched by `due` (as the scheduler watches its collections). */
async function open(t: Test, dir: string, watch = true) {
  return openFileStore(t, dir, { snapshotAtCloseBytes: 1 }, (store) => {
    if (watch) store.watch(Others, 'due', due);
  });
}

/** 50 others (every tenth passes `due`) and some things, then a clean stop that writes the snapshot. */
async function seeded(t: Test) {
  const dir = t.testdir();
  const store = await open(t, dir);
  putOthers(store, 50);
  store.transaction((tx) => {
    for (let i = 0; i < 5; i++) tx.put(Things, { id: `t${i}`, color: i % 2 ? 'red' : 'blue', n: i, note: 'é "quoted" \\ ☃' });
  });
  const before = dump(store);
  const order = [...store.all(Others)].map((r) => r.id);
  await store.closeOnce();
  return { dir, before, order };
}

t.test('a clean stop marks what the watches pass; a start reads the same records, in the same order', async (t) => {
  const { dir, before, order } = await seeded(t);
  const lines = fs.readFileSync(snapshotPath(dir), 'utf8').split('\n');
  t.match(lines[0], /"marks":\{"others":\["due"\]\}/);
  t.same(
    lines.filter((line) => line.startsWith(' ')).map((line) => JSON.parse(line.replace(/,$/, '')).id),
    ['o0', 'o10', 'o20', 'o30', 'o40'],
    'the marked lines are the records that pass',
  );
  t.same(JSON.parse(lines.join('\n')).collections.others.length, 50, 'still one JSON document');

  const store = await open(t, dir);
  t.same(
    [...store.watched(Others)].map((r) => r.id),
    ['o0', 'o10', 'o20', 'o30', 'o40'],
    'watched: only the marked records',
  );
  t.same(store.get(Others, 'o7'), { id: 'o7', v: 7 }, 'a record is parsed when read');
  t.equal(store.get(Others, 'o7'), store.get(Others, 'o7'), 'and then kept: the same object each time');
  t.same(
    [...store.all(Others)].map((r) => r.id),
    order,
    'insertion order kept',
  );
  t.same(dump(store), before);
  t.same(
    store.find(Things, 'byColor', 'red').map((r) => r.id),
    ['t1', 't3'],
    'indexes are built from the unparsed records',
  );
});

t.test('an index built from records left unparsed follows writes to them', async (t) => {
  const { dir, before } = await seeded(t);
  const store = await open(t, dir);
  t.same(
    store.find(Things, 'byColor', 'blue').map((r) => r.id),
    ['t0', 't2', 't4'],
    'the index is built: t1 and t3 (red) are read for their keys only',
  );
  store.transaction((tx) => tx.put(Things, { ...before.things[1]!, color: 'blue' }));
  store.transaction((tx) => tx.delete(Things, 't3'));
  t.same(store.find(Things, 'byColor', 'red'), [], 'the old keys of records written over before they were read are gone');
  t.same(
    store.find(Things, 'byColor', 'blue').map((r) => r.id),
    ['t0', 't2', 't4', 't1'],
  );
  t.equal(store.countIndex(Things, 'byColor', 'red'), 0);
  await store.closeOnce();
  const again = await open(t, dir);
  t.same(
    dump(again).things.map((r) => `${r.id}:${r.color}`),
    ['t0:blue', 't1:blue', 't2:blue', 't4:blue'],
    'and the next start reads what was written',
  );
});

t.test('a write after the start, and records never read, reach the next snapshot as they were', async (t) => {
  const { dir, before } = await seeded(t);
  const store = await open(t, dir);
  store.transaction((tx) => tx.put(Others, { id: 'o3', v: 30 })); // now passes `due`
  store.transaction((tx) => tx.delete(Others, 'o10'));
  await store.closeOnce();
  const again = await open(t, dir);
  t.same(
    [...again.watched(Others)].map((r) => r.id),
    ['o0', 'o3', 'o20', 'o30', 'o40'],
    'the written record is marked as its test now says',
  );
  const expected = before.others.filter((r) => r.id !== 'o10').map((r) => (r.id === 'o3' ? { id: 'o3', v: 30 } : r));
  t.same(dump(again).others, expected);
  t.same(dump(again).things, before.things, 'records with odd characters written back unchanged');
});

t.test('a snapshot without marks, or marked by other tests: every record may pass', async (t) => {
  const { dir } = await seeded(t);
  const file = snapshotPath(dir);
  const text = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, text.replace('"marks":{"others":["due"]},', '').replaceAll('\n ', '\n'));
  const unmarked = await open(t, dir);
  t.equal([...unmarked.watched(Others)].length, 50, 'no marks: all of them');
  await unmarked.closeOnce();
  t.match(fs.readFileSync(file, 'utf8'), /"marks":\{"others":\["due"\]\}/, 'a clean stop writes the marks');

  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('["due"]', '["other"]'));
  const renamed = await open(t, dir);
  t.equal([...renamed.watched(Others)].length, 50, 'marks of other tests: all of them');
});

t.test('a record damaged inside its line stops the start, named with the repair command', async (t) => {
  const { dir } = await seeded(t);
  const file = snapshotPath(dir);
  const text = fs.readFileSync(file, 'utf8');
  t.match(text, /\n\},"crc32":\d+\}\n$/, 'the last line holds the checksum');
  fs.writeFileSync(file, text.replace('{"id":"o7","v":7}', '{"id":"o7","v":7x}'));
  const store = new Store(COLLECTIONS, filePersistence(dir));
  await t.rejects(store.open(), /^store damaged: snapshot\.json at character \d+ is not valid JSON.*payemu doctor --data .* --repair/);
});

t.test('a record changed by hand into other valid JSON is read as it now is', async (t) => {
  const { dir } = await seeded(t);
  const file = snapshotPath(dir);
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('{"id":"o7","v":7}', '{"id":"o7","v":8}'));
  const store = await open(t, dir);
  t.same(store.get(Others, 'o7'), { id: 'o7', v: 8 }, 'the checksum no longer matches: the file is read whole and parsed');
  t.equal(store.count(Others), 50);
});

t.test('an id twice in a snapshot, its checksum made again: the last record is read, in the place of the first, by every look-up', async (t) => {
  const { dir } = await seeded(t);
  const file = snapshotPath(dir);
  const text = fs.readFileSync(file, 'utf8');
  // A second t1 (blue, no tags) after the last thing, the first t1 tagged "old", and the
  // checksum of the bytes before the trailer made again: the file is read as the start reads its
  // own, its records left unparsed, and its lists indexed before the maps are filled.
  const lines = text.split('\n');
  const t1 = lines.findIndex((l) => l.includes('"id":"t1"'));
  const second = lines[t1]!.replace('"color":"red"', '"color":"blue"').replace(/,$/, '');
  lines[t1] = lines[t1]!.replace('"color":"red"', '"color":"red","tags":["old"]');
  const last = lines.findIndex((l) => l.includes('"id":"t4"'));
  lines.splice(last, 1, lines[last]!.replace(/,?$/, ','), second);
  const body = lines.join('\n');
  const trailer = body.lastIndexOf('\n},"crc32":') + 1;
  const edited = `${body.slice(0, trailer)}},"crc32":${crc32(body.slice(0, trailer))}}\n`;
  const run = async (look: (store: Store) => void) => {
    fs.writeFileSync(file, edited);
    const store = await open(t, dir);
    look(store);
    t.match(store.get(Things, 't1'), { color: 'blue', tags: undefined }, 'the second t1 is the record');
    await store.closeOnce();
  };
  // Each look-up first after the start, so that it is the one that builds the index.
  await run((store) => {
    t.equal(store.countIndex(Things, 'byColor', 'red'), 1, 'counted: only t3 is red');
    t.equal(store.countIndex(Things, 'byColor', 'blue'), 4);
  });
  await run((store) => {
    t.same(
      store.find(Things, 'byColor', 'red').map((r) => r.id),
      ['t3'],
      'found: t1 is no longer red',
    );
    t.same(
      store.find(Things, 'byColor', 'blue').map((r) => r.id),
      ['t0', 't1', 't2', 't4'],
      'and blue, in its first place',
    );
    t.equal(store.count(Things), 5);
  });
  await run((store) => {
    t.equal(store.countIndex(Things, 'byTag', 'old'), 0, 'counted: the tag of the first t1 is gone');
  });
  await run((store) => {
    t.same(store.find(Things, 'byTag', 'old'), [], 'found: the tag of the first t1 is gone');
  });
});

t.test('records held as written keep the marks they were written with: a stop after a fresh start marks only what passes', async (t) => {
  const dir = t.testdir();
  const store = await openFileStore(t, dir, { snapshotAtCloseBytes: 1 }, (store) => {
    store.watch(Others, 'due', due);
    store.holdWhen(Others, () => true);
  });
  putOthers(store, 50);
  t.ok(store.isHeld(Others, 'o7'), 'held as written');
  t.same(
    [...store.watched(Others)].map((r) => r.id),
    ['o0', 'o10', 'o20', 'o30', 'o40'],
    'watched: only those that passed as they were written, the others not parsed',
  );
  t.ok(store.isHeld(Others, 'o7'));
  await store.closeOnce();
  const lines = fs.readFileSync(snapshotPath(dir), 'utf8').split('\n');
  t.same(
    lines.filter((line) => line.startsWith(' ')).map((line) => JSON.parse(line.replace(/,$/, '')).id),
    ['o0', 'o10', 'o20', 'o30', 'o40'],
    'the snapshot marks the records that pass, not every held one',
  );
  const again = await open(t, dir);
  t.same(
    [...again.all(Others)].map((r) => r.v),
    Array.from({ length: 50 }, (_, i) => i),
  );
});
