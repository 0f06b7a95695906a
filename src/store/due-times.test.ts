import fs from 'node:fs';
import t, { type Test } from 'tap';
import type { FilePersistenceOptions } from './file-persistence.js';
import { indexKeysPath, writeIndexKeys } from './index-keys.js';
import type { DueTimes, Store } from './store.js';
import { openFileStore, Others, putOthers, type Other } from './store.test-support.js';

/**
 * The due times of a watch (Store.watch with `times`, as the scheduler's), kept beside the
 * snapshot in index-keys.json by a clean stop: a restart's `Store.due` reads an unparsed
 * record's there, and only from the file of that very snapshot, written by the same functions
 * and version. Whatever else, the records are parsed for them, as without it: `due` answers the
 * same either way.
 */

const SNAPSHOT_AT_EVERY_CLOSE: FilePersistenceOptions = { snapshotAtCloseBytes: 1 };

/** Every tenth other is due at v seconds and runs 5 ms later; the others have nothing due. */
const times = (source = 'r => r.v'): DueTimes<Other> => ({ of: (r) => (r.v % 10 === 0 ? [r.v * 1000, r.v * 1000 + 5] : undefined), source });

function open(t: Test, dir: string, options: FilePersistenceOptions = SNAPSHOT_AT_EVERY_CLOSE, source?: string) {
  return openFileStore(t, dir, options, (store) => {
    store.watch(Others, 'due', (r) => r.v % 10 === 0, times(source));
    // A second watch, without times: the sevens are marked, and have no due times of the first.
    store.watch(Others, 'sevens', (r) => r.v % 7 === 0);
  });
}

/** 50 others, then a clean stop that writes the snapshot and the due times. */
async function seeded(t: Test) {
  const dir = t.testdir();
  const store = await open(t, dir);
  putOthers(store, 50);
  await store.closeOnce();
  return dir;
}

const due = (store: Store) => {
  const found: [string, number, number][] = [];
  store.due(Others, 'due', (id, due, at) => found.push([id, due, at]));
  return found;
};
const AS_WRITTEN = [0, 10, 20, 30, 40].map((v) => [`o${v}`, v * 1000, v * 1000 + 5]);

/** Rewrites the `others due` line of the file through `edit` (its columns: due, then how long after it the job runs), its snapshot binding kept. */
function tamper(dir: string, edit: (columns: unknown[][]) => void): void {
  const [headLine, ...lines] = fs.readFileSync(indexKeysPath(dir), 'utf8').trimEnd().split('\n');
  const head = JSON.parse(headLine!) as { snapshot: string; collections: Record<string, { print: string }> };
  const entries = Object.entries(head.collections).map(([name, { print }], i): [string, string, unknown[][]] => {
    const columns = JSON.parse(lines[i]!) as unknown[][];
    if (name === 'others due') edit(columns);
    return [name, print, columns];
  });
  writeIndexKeys(dir, head.snapshot, entries);
}

/** o10 due at 1 and run 1 ms later in the file: a restart that yields that has read the file. */
const moveO10 = (columns: unknown[][]) => {
  columns[0]![10] = 1;
  columns[1]![10] = 1;
};

t.test('a clean stop keeps the due times beside the snapshot, and a restart reads them instead of the records', async (t) => {
  const dir = await seeded(t);
  const [headLine, ...lines] = fs.readFileSync(indexKeysPath(dir), 'utf8').trimEnd().split('\n');
  const names = Object.keys((JSON.parse(headLine!) as { collections: object }).collections);
  t.ok(names.includes('others due'), 'a line of its own');
  const columns = JSON.parse(lines[names.indexOf('others due')]!) as unknown[][];
  t.same([columns[0]![10], columns[1]![10], columns[0]![7], columns[0]![11]], [10_000, 5, null, null], 'due, then how long after; null for none');

  tamper(dir, moveO10);
  const store = await open(t, dir);
  t.same(
    due(store),
    AS_WRITTEN.map((entry) => (entry[0] === 'o10' ? ['o10', 1, 2] : entry)),
    'the stored times were used',
  );
  t.same(store.get(Others, 'o10'), { id: 'o10', v: 10 }, 'the record is as it was');
});

t.test('after the restart, a record written or deleted is read from memory', async (t) => {
  const dir = await seeded(t);
  tamper(dir, moveO10);
  const store = await open(t, dir);
  store.transaction((tx) => {
    tx.put(Others, { id: 'o10', v: 11 });
    tx.put(Others, { id: 'o13', v: 60 });
    tx.delete(Others, 'o20');
    tx.put(Others, { id: 'o99', v: 70 });
  });
  t.same(due(store), [
    ['o0', 0, 5],
    ['o13', 60_000, 60_005],
    ['o30', 30_000, 30_005],
    ['o40', 40_000, 40_005],
    ['o99', 70_000, 70_005],
  ]);
});

t.test('due times of another snapshot, other functions or another version are not used', async (t) => {
  const cases: [string, (dir: string) => void, FilePersistenceOptions?, string?][] = [
    [
      'another snapshot',
      (dir) => fs.writeFileSync(indexKeysPath(dir), fs.readFileSync(indexKeysPath(dir), 'utf8').replace(/"snapshot":"(\d+)\//, '"snapshot":"1$1/')),
    ],
    ['another version', () => {}, { ...SNAPSHOT_AT_EVERY_CLOSE, keysMadeBy: 'payemu 9.9.9' }],
    ['other functions', () => {}, undefined, 'r => r.w'],
    ['a torn file', (dir) => fs.writeFileSync(indexKeysPath(dir), fs.readFileSync(indexKeysPath(dir), 'utf8').slice(0, -40))],
    ['a column of another length', (dir) => tamper(dir, (columns) => columns[1]!.pop())],
    ['a column missing', (dir) => tamper(dir, (columns) => columns.pop())],
    ['no file', (dir) => fs.rmSync(indexKeysPath(dir))],
  ];
  for (const [what, spoil, options, source] of cases) {
    await t.test(what, async (t) => {
      const dir = await seeded(t);
      tamper(dir, moveO10);
      spoil(dir);
      const store = await open(t, dir, options, source);
      t.same(due(store), AS_WRITTEN, 'the records were parsed for their times');
    });
  }
});

t.test('a time of the wrong shape: that record is parsed, the others are read; null is none', async (t) => {
  for (const [due10, at10] of [
    ['1', 2],
    [1, '2'],
    [1, null],
    [null, 2],
    [{}, []],
  ]) {
    const dir = await seeded(t);
    tamper(dir, (columns) => {
      columns[0]![10] = due10;
      columns[1]![10] = at10;
      columns[0]![20] = 3;
      columns[1]![20] = 1;
    });
    const store = await open(t, dir);
    t.same(
      due(store),
      AS_WRITTEN.map((entry) => (entry[0] === 'o20' ? ['o20', 3, 4] : entry)),
      `${JSON.stringify([due10, at10])}: o10 parsed, o20 read`,
    );
    await store.closeOnce();
  }
  const dir = await seeded(t);
  tamper(dir, (columns) => {
    columns[0]![10] = null;
    columns[1]![10] = null;
  });
  const store = await open(t, dir);
  t.same(
    due(store),
    AS_WRITTEN.filter((entry) => entry[0] !== 'o10'),
    'a record with none in the file is not parsed for them',
  );
});
