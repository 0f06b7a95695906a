import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { compact } from './compact.js';
import { encodeChanges, listSegments, segmentPath, snapshotPath } from './files.js';
import { type Thing, type Other, Things, Others, openFileStore, dump, ids, lastSegment } from './store.test-support.js';

// Compaction of the journal into the snapshot, in a child process (file-persistence.ts): what
// it keeps, and what a crash at each of its steps leaves. The rest of the file store's tests
// are in file-persistence.test.ts.

t.test('compaction with a tiny threshold: snapshot written, old segments gone, every record kept', async (t) => {
  const dir = t.testdir();
  const results: { ok: boolean; records?: number; error?: string }[] = [];
  let notify = () => {};
  const nextCompaction = () => new Promise<void>((resolve) => (notify = resolve));
  const store = await openFileStore(t, dir, {
    compactAfterBytes: 2048,
    onCompaction: (result) => {
      results.push(result);
      notify();
    },
  });

  const first = nextCompaction();
  // Writes go on while the compactor runs: they land in the new segment.
  for (let i = 0; i < 200; i++) {
    store.transaction((tx) => tx.put(Things, { id: `t${i}`, color: i % 2 ? 'odd' : 'even', n: i, note: 'x'.repeat(50) }));
    if (i % 7 === 0) store.transaction((tx) => tx.delete(Things, `t${i - 3}`));
    if (i % 5 === 0) store.transaction((tx) => tx.put(Things, { ...tx.get(Things, `t${i}`)!, color: 'changed' }));
  }
  await first;
  t.same(results[0], { ok: true, records: results[0]!.records }, 'the first compaction succeeded');
  t.ok(fs.existsSync(snapshotPath(dir)), 'snapshot.json exists');
  const covered = JSON.parse(fs.readFileSync(snapshotPath(dir), 'utf8')).covers as number;
  t.ok(covered >= 1);
  t.ok(
    listSegments(dir).every((n) => n > covered),
    'the segments it covers are deleted',
  );

  // The next append past the threshold compacts everything written so far.
  const second = nextCompaction();
  store.transaction((tx) => tx.put(Others, { id: 'last', v: 1 }));
  await second;
  t.equal(results.length, 2);
  t.equal(results[1]!.ok, true, results[1]!.error ?? 'compaction ok');
  const snapshot = JSON.parse(fs.readFileSync(snapshotPath(dir), 'utf8'));
  t.equal(snapshot.covers, Math.min(...listSegments(dir)) - 1, 'the snapshot covers every segment before the current one');
  t.equal(listSegments(dir).length, 1, 'one (empty) segment is left');
  t.equal(fs.statSync(lastSegment(dir)).size, 0);
  t.equal(results[1]!.records, store.count(Things as never) + store.count(Others as never), 'the snapshot holds every record');
  t.notOk(fs.existsSync(path.join(dir, '.snapshot.json.tmp')), 'no temporary file is left');

  const before = dump(store);
  t.equal(before.things.find((r) => r.id === 't195')?.color, 'changed');
  t.equal(
    before.things.find((r) => r.id === 't193'),
    undefined,
    'deleted (196 % 7 === 0)',
  );
  await store.closeOnce();
  const reopened = await openFileStore(t, dir, { compactAfterBytes: 2048 });
  t.same(dump(reopened), before, 'a reopen has every record');
  t.same(ids(reopened.find(Things, 'byColor', 'changed')).sort(), ids(before.things.filter((r) => r.color === 'changed')));
});

t.test('a crash at any point of a compaction leaves a store that reopens with every record', async (t) => {
  // The two cases run side by side: each waits for a compactor process to start.
  const root = t.testdir();
  const diedAfterSnapshot = async (dir: string) => {
    t.comment('died after the new snapshot, before deleting the old segments');
    let done!: () => void;
    const compacted = new Promise<void>((resolve) => (done = resolve));
    const store = await openFileStore(t, dir, { compactAfterBytes: 1024, onCompaction: () => done() });
    // Segment 1 takes puts until the one that passes the threshold rotates it; then t0 changes
    // and t1 is deleted in segment 2. `stale` is what segment 1 holds when it is rotated.
    let stale = '';
    for (let i = 0; !fs.existsSync(segmentPath(dir, 2)); i++) {
      const record = { id: `t${i}`, color: 'red', n: i, note: 'y'.repeat(80) };
      stale += encodeChanges([{ collection: 'things', id: record.id, record }]);
      store.transaction((tx) => tx.put(Things, record));
    }
    store.transaction((tx) => {
      tx.put(Things, { ...tx.get(Things, 't0')!, color: 'blue' });
      tx.delete(Things, 't1');
    });
    await compacted;
    t.notOk(fs.existsSync(segmentPath(dir, 1)), 'compaction deleted segment 1');
    const before = dump(store);
    await store.closeOnce();

    fs.writeFileSync(segmentPath(dir, 1), stale); // as if the compactor died before the delete
    const reopened = await openFileStore(t, dir);
    t.same(dump(reopened), before, 'the leftover segment is ignored: nothing old comes back');
    t.equal(reopened.get(Things, 't1'), undefined);
    t.equal(reopened.get(Things, 't0')?.color, 'blue');
  };

  const diedBeforeRename = async (dir: string) => {
    t.comment('died before the snapshot was renamed (segments rotated, a half temp file left)');
    fs.mkdirSync(dir);
    const line = (id: string, v: number) => encodeChanges([{ collection: 'others', id, record: { id, v } as Other }]);
    fs.writeFileSync(segmentPath(dir, 1), line('a', 1) + line('b', 2));
    fs.writeFileSync(segmentPath(dir, 2), line('a', 10) + encodeChanges([{ collection: 'others', id: 'b', record: null }]) + line('c', 3));
    fs.writeFileSync(path.join(dir, '.snapshot.json.tmp'), '{"version":1,"covers":1,"collec');

    let done!: (result: { ok: boolean; error?: string }) => void;
    const compacted = new Promise<{ ok: boolean; error?: string }>((resolve) => (done = resolve));
    // The journal is past the threshold at load: it compacts at once.
    const store = await openFileStore(t, dir, { compactAfterBytes: 10, onCompaction: (result) => done(result) });
    t.same(
      dump(store).others,
      [
        { id: 'a', v: 10 },
        { id: 'c', v: 3 },
      ],
      'both segments replayed, in order',
    );
    const result = await compacted;
    t.equal(result.ok, true, result.error ?? 'compaction ok');
    t.same(listSegments(dir), [3], 'appends went to a new segment; the old ones are folded');
    t.equal(JSON.parse(fs.readFileSync(snapshotPath(dir), 'utf8')).covers, 2);
    t.notOk(fs.existsSync(path.join(dir, '.snapshot.json.tmp')), 'the temp file was replaced and renamed');
    await store.closeOnce();
    const reopened = await openFileStore(t, dir);
    t.same(dump(reopened).others, [
      { id: 'a', v: 10 },
      { id: 'c', v: 3 },
    ]);
  };
  const serverDied = async (dir: string) => {
    t.comment('the server died (kill -9) while its compactor ran: the compactor stops at once, leaving the directory alone');
    // When the server is killed, its compactor lives on as an orphan. Going on, it would race the
    // restarted server: replacing the snapshot and deleting segments while the new server reads
    // them (records missing in memory, payment ids given out twice). Here a stand-in server
    // forks the compactor as the store does and kills itself with SIGKILL at once.
    fs.mkdirSync(dir);
    let journal = '';
    for (let i = 0; i < 5000; i++)
      journal += encodeChanges([{ collection: 'things', id: `t${i}`, record: { id: `t${i}`, color: 'red', n: i, note: 'z'.repeat(100) } as Thing }]);
    fs.writeFileSync(segmentPath(dir, 1), journal);
    const script = fileURLToPath(new URL(`./compact-main${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));
    const server = `require('node:child_process').fork(process.argv[1], [process.argv[2], '1', String(process.pid)], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: JSON.parse(process.argv[3]) });
    process.kill(process.pid, 'SIGKILL');`;
    const child = spawn(process.execPath, ['-e', server, script, dir, JSON.stringify(process.execArgv)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // 'close' comes once every holder of the stderr pipe has ended: the compactor too.
    const [, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
    t.equal(signal, 'SIGKILL', 'the stand-in server was killed');
    t.equal(stderr, '', 'the compactor wrote no error');
    t.notOk(fs.existsSync(snapshotPath(dir)), 'no snapshot was written');
    t.same(fs.readdirSync(dir), ['journal-000001.ndjson'], 'nor any other file');
    t.equal(fs.readFileSync(segmentPath(dir, 1), 'utf8'), journal, 'the segment is still there, unchanged');
  };
  await Promise.all([
    diedAfterSnapshot(path.join(root, 'after-snapshot')),
    diedBeforeRename(path.join(root, 'before-rename')),
    serverDied(path.join(root, 'server-died')),
  ]);
});

t.test('a compaction whose server is gone stops where the directory would change, and leaves a store that reopens whole', async (t) => {
  const line = (id: string, v: number) => encodeChanges([{ collection: 'others', id, record: { id, v } as Other }]);
  const segments = [line('a', 1) + line('b', 2), line('a', 10) + line('c', 3)];
  const write = (dir: string) => {
    fs.mkdirSync(dir);
    for (const [i, text] of segments.entries()) fs.writeFileSync(segmentPath(dir, i + 1), text);
  };
  const gone = (atCheck: number) => {
    let checks = 0;
    return () => {
      if (++checks === atCheck) throw new Error('the server is gone');
    };
  };
  const expected = [
    { id: 'a', v: 10 },
    { id: 'b', v: 2 },
    { id: 'c', v: 3 },
  ];

  const beforeRename = path.join(t.testdir(), 'before-rename');
  write(beforeRename);
  await t.rejects(compact(beforeRename, 2, gone(1)), /the server is gone/);
  t.same(fs.readdirSync(beforeRename), ['journal-000001.ndjson', 'journal-000002.ndjson'], 'before the rename: no snapshot, no temporary file');
  t.same(
    listSegments(beforeRename).map((n) => fs.readFileSync(segmentPath(beforeRename, n), 'utf8')),
    segments,
    'the segments are unchanged',
  );
  t.same(dump(await openFileStore(t, beforeRename)).others, expected, 'it reopens with every record');

  const beforeDeletes = path.join(path.dirname(beforeRename), 'before-deletes');
  write(beforeDeletes);
  await t.rejects(compact(beforeDeletes, 2, gone(2)), /the server is gone/);
  t.equal(JSON.parse(fs.readFileSync(snapshotPath(beforeDeletes), 'utf8')).covers, 2, 'after the rename: the new snapshot is in place');
  t.same(listSegments(beforeDeletes), [1, 2], 'and the segments it covers are left');
  t.same(dump(await openFileStore(t, beforeDeletes)).others, expected, 'it reopens with every record, once each');
});

t.test("a compaction copies the snapshot's records no segment changed as they were, and reads back what was written", async (t) => {
  const dir = t.testdir();
  const first = await openFileStore(t, dir, { snapshotAtCloseBytes: 1 });
  first.transaction((tx) => {
    for (let i = 0; i < 50; i++) tx.put(Things, { id: `t${i}`, color: i % 2 ? 'odd' : 'even', n: i, note: `é ${i}` });
  });
  await first.closeOnce();
  const lineOf = (id: string) =>
    fs
      .readFileSync(snapshotPath(dir), 'utf8')
      .split('\n')
      .find((line) => line.startsWith(`{"id":"${id}"`));
  const untouched = lineOf('t7');

  // Kept unparsed at this start: a record read and then rewritten in part (a journal line of its
  // changed fields, laid over the snapshot's record by the compaction), one deleted, one new.
  const second = await openFileStore(t, dir, { snapshotAtCloseBytes: 1024 * 1024 * 1024 });
  second.transaction((tx) => tx.put(Things, { ...tx.get(Things, 't3')!, color: 'changed' }));
  second.transaction((tx) => tx.delete(Things, 't4'));
  second.transaction((tx) => tx.put(Things, { id: 't50', color: 'new', n: 50 }));
  const before = dump(second);
  await second.closeOnce();
  t.ok(fs.readFileSync(lastSegment(dir), 'utf8').includes('"t3",{"color":"changed"}'), "t3's line holds only its changed field");

  await compact(dir, listSegments(dir).at(-1)!);
  const plain = (line: string | undefined) => line?.replace(/,$/, '');
  t.equal(plain(lineOf('t7')), plain(untouched), 'an unchanged record is its line as it was');
  t.equal(JSON.parse(plain(lineOf('t3'))!).note, 'é 3', 'the part rewritten is laid over the record it was read from');
  const third = await openFileStore(t, dir);
  t.same(dump(third), before, 'a restart reads back exactly what was written');
});
