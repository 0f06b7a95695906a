import fs from 'node:fs';
import t, { type Test } from 'tap';
import { collection } from './collection.js';
import { filePersistence, type FilePersistenceOptions } from './file-persistence.js';
import { snapshotPath } from './files.js';
import type { IndexKey } from './collection.js';
import { indexColumn, indexKeysPath, keyedCollections, type KeySet, sourceShape, writeIndexKeys } from './index-keys.js';
import type { RawLine } from './raw-records.js';
import { Store } from './store.js';
import { ids, opened, Others, Things, type Thing } from './store.test-support.js';

/**
 * index-keys.json, the index keys a clean stop keeps beside the snapshot: an index built after a
 * restart takes an unparsed record's keys from it, and only when it is the file of that very
 * snapshot, written by the same index definitions and version. Whatever else, the records are
 * parsed for their keys, as without it, and every look-up answers the same.
 */

const SNAPSHOT_AT_EVERY_CLOSE: FilePersistenceOptions = { snapshotAtCloseBytes: 1 };

function open(t: Test, dir: string, options: FilePersistenceOptions = SNAPSHOT_AT_EVERY_CLOSE, things = Things) {
  return opened(t, new Store([things, Others] as never, filePersistence(dir, options)));
}

/** 30 things: three colors, tags as arrays (some empty, some none). */
async function seeded(t: Test, options?: FilePersistenceOptions) {
  const dir = t.testdir();
  const store = await open(t, dir, options);
  store.transaction((tx) => {
    for (let i = 0; i < 30; i++) {
      const tags = i % 3 === 0 ? undefined : i % 3 === 1 ? [] : ['odd', `x${i}`];
      tx.put(Things, { id: `t${i}`, color: ['red', 'green', 'blue'][i % 3]!, n: i, ...(tags ? { tags } : {}) });
    }
  });
  await store.closeOnce();
  return dir;
}

const sorted = (records: readonly { id: string }[]) => ids(records).sort();
const expectedRed = sorted(Array.from({ length: 10 }, (_, i) => ({ id: `t${i * 3}` })));

/** Gives the `n`th thing the keys `keys` (one per index) in the file, its snapshot binding kept. */
function tamper(dir: string, n: number, keys: unknown[], edit: (columns: unknown[][]) => void = () => {}): void {
  const [headLine, ...lines] = fs.readFileSync(indexKeysPath(dir), 'utf8').trimEnd().split('\n');
  const head = JSON.parse(headLine!) as { snapshot: string; collections: Record<string, { print: string }> };
  const at = Object.keys(head.collections).indexOf('things');
  const columns = JSON.parse(lines[at]!) as unknown[][];
  for (const [i, key] of keys.entries()) columns[i]![n] = key;
  edit(columns);
  writeIndexKeys(dir, head.snapshot, [['things', head.collections.things!.print, columns as IndexKey[][]]]);
}

/** Binds the file to another snapshot name. */
function rename(dir: string, name: (crc: string, covers: string) => string): void {
  const text = fs.readFileSync(indexKeysPath(dir), 'utf8');
  fs.writeFileSync(
    indexKeysPath(dir),
    text.replace(/"snapshot":"(\d+)\/(\d+)"/, (_, crc: string, covers: string) => `"snapshot":"${name(crc, covers)}"`),
  );
}

t.test('a clean stop keeps the keys beside the snapshot, and a restart reads them instead of the records', async (t) => {
  const dir = await seeded(t);
  const head = JSON.parse(fs.readFileSync(indexKeysPath(dir), 'utf8').split('\n')[0]!) as { snapshot: string; collections: object };
  const snapshot = fs.readFileSync(snapshotPath(dir), 'utf8');
  const [crc, covers] = [/"crc32":(\d+)\}\n$/.exec(snapshot)?.[1], /^\{"version":1,"covers":(\d+),/.exec(snapshot)?.[1]];
  t.equal(head.snapshot, `${crc}/${covers}`, "bound to the snapshot's CRC-32 and the segments it covers");
  t.same(Object.keys(head.collections), ['things'], 'only indexed collections');

  // t0 is red: its stored keys say purple. A build that reads them files it under purple, which
  // shows that the file, not the record, was read.
  tamper(dir, 0, ['purple', null]);
  const store = await open(t, dir);
  t.same(sorted(store.find(Things, 'byColor', 'purple')), ['t0'], 'the stored keys were used');
  t.same(
    sorted(store.find(Things, 'byColor', 'red')),
    expectedRed.filter((id) => id !== 't0'),
  );
  t.same(sorted(store.find(Things, 'byTag', 'odd')), sorted(Array.from({ length: 10 }, (_, i) => ({ id: `t${i * 3 + 2}` }))));
});

t.test('keys of another snapshot, other index definitions or another version are not used', async (t) => {
  const cases: [string, (dir: string) => void, FilePersistenceOptions?, typeof Things?][] = [
    ['another snapshot (a compaction or doctor wrote it)', (dir) => rename(dir, (crc, covers) => `${Number(crc) + 1}/${covers}`)],
    ['another snapshot covering other segments', (dir) => rename(dir, (crc, covers) => `${crc}/${Number(covers) + 1}`)],
    ['another version', () => {}, { ...SNAPSHOT_AT_EVERY_CLOSE, keysMadeBy: 'payemu 9.9.9' }],
    ['other index definitions', () => {}, undefined, collection<Thing>('things', { byColor: (r) => r.color, byTag: (r) => r.tags ?? [] })],
    ['a torn file', (dir) => fs.writeFileSync(indexKeysPath(dir), fs.readFileSync(indexKeysPath(dir), 'utf8').slice(0, -40))],
    ['a column of another length', (dir) => tamper(dir, 0, ['purple', null], (columns) => columns[1]!.pop())],
    ['a column missing', (dir) => tamper(dir, 0, ['purple', null], (columns) => columns.pop())],
    ['no file', (dir) => fs.rmSync(indexKeysPath(dir))],
  ];
  for (const [what, spoil, options, things] of cases) {
    await t.test(what, async (t) => {
      const dir = await seeded(t);
      tamper(dir, 0, ['purple', null]);
      spoil(dir);
      const store = await open(t, dir, options, things);
      t.same(store.find(Things, 'byColor', 'purple'), [], 'the stored keys were not used');
      t.same(sorted(store.find(Things, 'byColor', 'red')), expectedRed, 'the records were parsed for their keys');
    });
  }
});

t.test('a key of the wrong shape: that record is parsed for its keys, the others are read', async (t) => {
  for (const wrong of [
    [1, null],
    [{}, null],
    [true, null],
    ['purple', [2]],
    ['purple', ['a', null]],
    ['purple', {}],
  ]) {
    const dir = await seeded(t);
    tamper(dir, 0, wrong);
    tamper(dir, 3, ['yellow', null]);
    const store = await open(t, dir);
    t.same(sorted(store.find(Things, 'byColor', 'yellow')), ['t3'], `${JSON.stringify(wrong)}: the others' keys are read`);
    t.same(store.find(Things, 'byColor', 'purple'), [], `${JSON.stringify(wrong)}: not used`);
    t.ok(sorted(store.find(Things, 'byColor', 'red')).includes('t0'), `${JSON.stringify(wrong)}: t0 has its own key`);
    await store.closeOnce();
  }
});

t.test('a stop rewrites keys that are missing or not current, parsing the records it has no keys for', async (t) => {
  const dir = await seeded(t, { snapshotAtCloseBytes: 1 });
  fs.rmSync(indexKeysPath(dir));
  // A stop with little journal writes no snapshot, unless the keys are not those of the one read.
  const store = await open(t, dir, { snapshotAtCloseBytes: 1e9 });
  store.transaction((tx) => tx.put(Things, { id: 't1', color: 'blue', n: 1 }));
  await store.closeOnce();
  t.ok(fs.existsSync(indexKeysPath(dir)), 'written again');

  tamper(dir, 0, ['purple', null]);
  const reopened = await open(t, dir, { snapshotAtCloseBytes: 1e9 });
  t.same(sorted(reopened.find(Things, 'byColor', 'purple')), ['t0'], 'and read');
  t.same(
    sorted(reopened.find(Things, 'byColor', 'blue')),
    ['t1', 't11', 't14', 't17', 't2', 't20', 't23', 't26', 't29', 't5', 't8'],
    'with the change the stop wrote',
  );
  await reopened.closeOnce();
  t.match(fs.readFileSync(indexKeysPath(dir), 'utf8'), '"purple"', 'current keys are not written again');
});

t.test("a key function reads the same in the library's build and in the command line's bundle, and not as another", async (t) => {
  // The same functions as tsc (dist/) and esbuild (dist/bin/cli.cjs) print them.
  const pairs: [string, string][] = [
    ["(record) => (record.status === 'open' ? record.expires_at : undefined)", '(record) => record.status === "open" ? record.expires_at : void 0'],
    [
      "(invoice) => (invoice.status === 'sent' ? invoice.due_date + 86_400_000 : undefined)",
      '(invoice) => invoice.status === "sent" ? invoice.due_date + 864e5 : void 0',
    ],
    ['(r) => ({ ...rest, data: old.data ?? {} })', '(r) => ({ ...rest, data: old.data ?? {}, })'],
    ['(schedule) => schedule.updated_at', '(schedule2) => schedule2.updated_at'],
  ];
  for (const [library, bundle] of pairs) t.equal(sourceShape(library), sourceShape(bundle), library);
  t.not(sourceShape('(p) => p.created_at + 1000'), sourceShape('(p) => p.created_at + 2000'));
  t.not(sourceShape('(p) => p.reference'), sourceShape('(p) => p.scope'));
});

t.test('a stop whose keys file has none for a collection reads the file once, and parses the records for their keys', (t) => {
  let reads = 0;
  const set: KeySet = { name: 'things', def: Things as never, columns: [indexColumn('byColor', (r) => (r as Thing).color)] };
  const lines: RawLine[] = ['red', 'green', 'blue'].map((color, position) => ({
    text: JSON.stringify({ id: `t${position}`, color, n: position }),
    marked: false,
    position,
  }));
  const { collections, keys } = keyedCollections([['things', lines]], new Map([['things', [set]]]), '', () => {
    reads++;
    return undefined;
  });
  for (const [, values] of collections) t.equal([...values].length, 3, 'every record is written');
  // It was read once a record: 100,000 opens and reads of its head at the stop after an import.
  t.equal(reads, 1, 'the file is read once');
  t.same(
    keys().map(([name, , columns]) => [name, columns]),
    [['things', [['red', 'green', 'blue']]]],
    'the keys come from the records',
  );
  t.end();
});
