import { fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { filePersistence } from './file-persistence.js';
import { encodeChanges, listSegments, segmentPath, snapshotPath } from './files.js';
import { lockHolder, recordLockUrl } from './lock.js';
import { Store } from './store.js';
import { type Thing, type Other, Things, Others, COLLECTIONS, openFileStore, dump, ids, lastSegment, writeHistory } from './store.test-support.js';

t.test('file persistence: what is written is there after close and reopen', async (t) => {
  const dir = t.testdir();
  const store = await openFileStore(t, dir);
  writeHistory(store, 30);
  const before = dump(store);
  t.equal(before.things.length, 29);
  t.equal(before.others.length, 29);
  await store.closeOnce();
  t.notOk(fs.existsSync(path.join(dir, 'payemu.lock')), 'close releases the lock');

  const reopened = await openFileStore(t, dir);
  t.same(dump(reopened), before, 'the same records');
  t.same(reopened.get(Things, 't4')?.note, { nested: [4, 'é ✓ 𝄞 \u202e', null] }, 'unicode survives');
  t.same(ids(reopened.find(Things, 'byColor', 'purple')), ['t1'], 'indexes are rebuilt');
  t.same(
    ids(reopened.find(Things, 'byTag', 'even')).sort(),
    before.things.filter((r) => r.tags?.includes('even')).map((r) => r.id),
  );

  reopened.transaction((tx) => tx.put(Things, { id: 'later', color: 'red', n: 1 }));
  await reopened.closeOnce();
  const third = await openFileStore(t, dir);
  t.equal(third.get(Things, 'later')?.n, 1, 'appends after a reopen are kept too');
  t.equal(third.count(Things as never), 30);
});

t.test('a torn last line (a crash inside a write) is dropped and cut off; the next append is fine', async (t) => {
  const dir = t.testdir();
  const store = await openFileStore(t, dir);
  writeHistory(store, 5);
  const before = dump(store);
  await store.closeOnce();

  const segment = lastSegment(dir);
  const intact = fs.readFileSync(segment);
  // A prefix of a real line, ending inside a multi-byte character, with no newline.
  const torn = Buffer.from(encodeChanges([{ collection: 'things', id: 'torn', record: { id: 'torn', color: 'ré𝄞d', n: 1 } as Thing }]));
  fs.appendFileSync(segment, torn.subarray(0, torn.length - 6));

  const reopened = await openFileStore(t, dir);
  t.same(dump(reopened), before, 'the records before the torn write');
  t.equal(reopened.get(Things, 'torn'), undefined, 'the torn record is not there');
  t.same(fs.readFileSync(segment), intact, 'the torn bytes are cut off the file');

  reopened.transaction((tx) => tx.put(Things, { id: 'after', color: 'red', n: 7 }));
  const lines = fs.readFileSync(segment, 'utf8').split('\n');
  t.equal(lines.at(-1), '', 'the file ends with a newline');
  t.doesNotThrow(() => {
    for (const line of lines.slice(0, -1)) JSON.parse(line);
  }, 'every line is whole JSON');
  await reopened.closeOnce();

  const third = await openFileStore(t, dir);
  t.equal(third.get(Things, 'after')?.n, 7, 'the append after the repair is read back');
  t.same(dump(third).others, before.others);
});

t.test('a bad line that is not the torn tail is a clear error, and nothing is repaired', async (t) => {
  t.test('inside the last segment', async (t) => {
    const dir = t.testdir();
    const store = await openFileStore(t, dir);
    writeHistory(store, 4);
    await store.closeOnce();
    const segment = lastSegment(dir);
    const lines = fs.readFileSync(segment, 'utf8').split('\n');
    lines[1] = '[["things","t1",{"id":"t1"'; // damaged in the middle
    fs.writeFileSync(segment, lines.join('\n'));
    const damaged = fs.readFileSync(segment);

    const store2 = new Store(COLLECTIONS, filePersistence(dir));
    await t.rejects(store2.open(), {
      message: `store damaged: ${path.basename(segment)} line 2 (byte ${Buffer.byteLength(lines[0]!) + 1}) is not valid JSON (in ${dir}). To keep every readable record and set the damaged file aside, run: payemu doctor --data ${dir} --repair`,
    });
    t.same(fs.readFileSync(segment), damaged, 'the file is left as it was, for a human to look at');

    // After a failed open the directory is not held: fixing the file makes it open again.
    fs.writeFileSync(segment, lines.filter((_, i) => i !== 1).join('\n'));
    const fixed = await openFileStore(t, dir);
    t.same(ids([...fixed.all(Others)]).sort(), ['o0', 'o2'], 'the other lines are read');
  });

  t.test('a complete last line (it has its newline) that is not JSON', async (t) => {
    const dir = t.testdir();
    const store = await openFileStore(t, dir);
    writeHistory(store, 2);
    await store.closeOnce();
    fs.appendFileSync(lastSegment(dir), 'not json\n');
    await t.rejects(new Store(COLLECTIONS, filePersistence(dir)).open(), /store damaged: journal-\d{6}\.ndjson line 4 \(byte \d+\) is not valid JSON/);
  });

  t.test('a torn line in an older segment', async (t) => {
    const dir = t.testdir();
    fs.writeFileSync(segmentPath(dir, 1), `${encodeChanges([{ collection: 'others', id: 'o1', record: { id: 'o1', v: 1 } as Other }])}[["others","o2"`);
    fs.writeFileSync(segmentPath(dir, 2), encodeChanges([{ collection: 'others', id: 'o3', record: { id: 'o3', v: 3 } as Other }]));
    const before = fs.readFileSync(segmentPath(dir, 1));
    // Only the newest segment can have been cut short by a crash: an older one was closed whole
    // when it was rotated. Cut short, it lost writes that were answered: that is damage.
    await t.rejects(
      new Store(COLLECTIONS, filePersistence(dir)).open(),
      /^store damaged: journal-000001\.ndjson line 2 \(byte \d+\) is cut short .*payemu doctor --data \S+ --repair$/,
    );
    t.same(fs.readFileSync(segmentPath(dir, 1)), before, 'and it is not "repaired"');
  });
});

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
    // them (records missing in memory, payment ids given out twice). The death of the server
    // closes the IPC channel; `disconnect()` does the same here.
    fs.mkdirSync(dir);
    let journal = '';
    for (let i = 0; i < 5000; i++)
      journal += encodeChanges([{ collection: 'things', id: `t${i}`, record: { id: `t${i}`, color: 'red', n: i, note: 'z'.repeat(100) } as Thing }]);
    fs.writeFileSync(segmentPath(dir, 1), journal);
    const script = fileURLToPath(new URL(`./compact-main${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));
    const child = fork(script, [dir, '1'], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    const exited = once(child, 'exit');
    child.disconnect();
    const [code] = await exited;
    t.not(code, 0, 'it exits with a failure code');
    t.notOk(fs.existsSync(snapshotPath(dir)), 'no snapshot was written');
    t.equal(fs.readFileSync(segmentPath(dir, 1), 'utf8'), journal, 'the segment is still there, unchanged');
  };
  await Promise.all([
    diedAfterSnapshot(path.join(root, 'after-snapshot')),
    diedBeforeRename(path.join(root, 'before-rename')),
    serverDied(path.join(root, 'server-died')),
  ]);
});

t.test("the lock: one owner per data directory; a dead owner's lock is taken over", async (t) => {
  t.test('a second open in the same process fails while the first is open', async (t) => {
    const dir = t.testdir();
    const first = await openFileStore(t, dir);
    first.transaction((tx) => tx.put(Others, { id: 'a', v: 1 }));
    const second = new Store(COLLECTIONS, filePersistence(dir));
    await t.rejects(second.open(), /data directory .* is in use by another payemu/);
    t.equal(lockedBy(dir), process.pid, 'the lock still names the first owner');
    first.transaction((tx) => tx.put(Others, { id: 'b', v: 2 }));
    await first.closeOnce();
    const third = await openFileStore(t, dir);
    t.same(ids([...third.all(Others)]).sort(), ['a', 'b'], 'after the first closes, the directory opens again');
  });

  t.test('a lock held by another live process refuses, naming its pid', async (t) => {
    const dir = t.testdir();
    const holder = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'ignore'] });
    t.teardown(() => void holder.kill());
    await once(holder, 'spawn');
    fs.writeFileSync(path.join(dir, 'payemu.lock'), String(holder.pid));
    const store = new Store(COLLECTIONS, filePersistence(dir));
    await t.rejects(store.open(), { message: `data directory ${dir} is in use by another payemu (pid ${holder.pid})` });
    t.equal(fs.readFileSync(path.join(dir, 'payemu.lock'), 'utf8'), String(holder.pid), 'the lock is untouched');
    t.same(listSegments(dir), [], 'nothing was written');
  });

  t.test('processes that find the same stale lock at the same moment: exactly one takes it over', async (t) => {
    const dead = spawn(process.execPath, ['-e', '']);
    await once(dead, 'exit');
    const script = fileURLToPath(new URL(`./lock-race.test-support${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));
    for (let round = 0; round < 2; round++) {
      const dir = t.testdir();
      fs.writeFileSync(path.join(dir, 'payemu.lock'), String(dead.pid));
      const children = Array.from({ length: 6 }, () => fork(script, [dir], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }));
      const answers = children.map(
        (child) =>
          new Promise<string[]>((resolve) => {
            const said: string[] = [];
            child.on('message', (m) => {
              said.push(String(m));
              if (said.length === 2) resolve(said);
            });
          }),
      );
      const ready = children.map((child) => once(child, 'message'));
      await Promise.all(ready);
      fs.writeFileSync(path.join(dir, 'go'), '');
      const results = (await Promise.all(answers)).map((said) => said[1]!);
      const locked = results.filter((r) => r === 'locked').length;
      t.equal(locked, 1, `round ${round}: one of six got the lock (${results.map((r) => r.split(':')[0]).join(', ')})`);
      t.ok(
        results.every((r) => r === 'locked' || /in use by another payemu \(pid \d+\)/.test(r)),
        'the others were told who holds it',
      );
      t.notOk(fs.existsSync(path.join(dir, 'payemu.lock.takeover')), 'no takeover file left behind');
      for (const child of children) child.disconnect();
      await Promise.all(children.map((child) => (child.exitCode === null ? once(child, 'exit') : undefined)));
    }
  });

  t.test('a takeover file left by a process that died is cleared', async (t) => {
    const dead = spawn(process.execPath, ['-e', '']);
    await once(dead, 'exit');
    const dir = t.testdir();
    fs.writeFileSync(path.join(dir, 'payemu.lock'), String(dead.pid));
    fs.writeFileSync(path.join(dir, 'payemu.lock.takeover'), String(dead.pid));
    const store = await openFileStore(t, dir);
    t.equal(lockedBy(dir), process.pid);
    t.notOk(fs.existsSync(path.join(dir, 'payemu.lock.takeover')));
    await store.closeOnce();
  });

  t.test('a takeover by a live process that does not finish: the start gives up with a clear error', async (t) => {
    const dead = spawn(process.execPath, ['-e', '']);
    await once(dead, 'exit');
    const taker = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'ignore'] });
    t.teardown(() => void taker.kill());
    await once(taker, 'spawn');
    const dir = t.testdir();
    fs.writeFileSync(path.join(dir, 'payemu.lock'), String(dead.pid));
    fs.writeFileSync(path.join(dir, 'payemu.lock.takeover'), String(taker.pid));
    const store = new Store(COLLECTIONS, filePersistence(dir));
    await t.rejects(store.open(), /another process is taking over its stale lock/);
    t.equal(fs.readFileSync(path.join(dir, 'payemu.lock'), 'utf8'), String(dead.pid), 'the lock is left to the taker');
  });

  t.test('a stale lock of a dead process is taken over, and so is an empty one', async (t) => {
    const dead = spawn(process.execPath, ['-e', '']);
    const [code] = await once(dead, 'exit');
    t.equal(code, 0);
    for (const content of [String(dead.pid), '']) {
      const dir = t.testdir();
      const lock = path.join(dir, 'payemu.lock');
      fs.writeFileSync(lock, content);
      const store = await openFileStore(t, dir);
      t.equal(lockedBy(dir), process.pid, `a lock holding "${content}" now names this process`);
      store.transaction((tx) => tx.put(Others, { id: 'a', v: 1 }));
      await store.closeOnce();
      t.notOk(fs.existsSync(lock));
    }
  });

  t.test(
    'the lock names the pid and its start time; a live pid with another start time was reused, and is taken over',
    { skip: !fs.existsSync('/proc/self/stat') && 'no /proc here' },
    async (t) => {
      const holder = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'ignore'] });
      t.teardown(() => void holder.kill());
      await once(holder, 'spawn');
      const started = procStart(holder.pid!);

      const reused = t.testdir();
      fs.writeFileSync(path.join(reused, 'payemu.lock'), JSON.stringify({ pid: holder.pid, started: started + 1, url: 'http://127.0.0.1:1' }));
      const store = await openFileStore(t, reused);
      t.same(
        JSON.parse(fs.readFileSync(path.join(reused, 'payemu.lock'), 'utf8')),
        { pid: process.pid, started: procStart(process.pid) },
        'taken over: the lock names this process and when it started',
      );
      await store.closeOnce();

      const held = t.testdir();
      const lock = JSON.stringify({ pid: holder.pid, started, url: 'http://127.0.0.1:1' });
      fs.writeFileSync(path.join(held, 'payemu.lock'), lock);
      await t.rejects(new Store(COLLECTIONS, filePersistence(held)).open(), {
        message: `data directory ${held} is in use by another payemu (pid ${holder.pid}) at http://127.0.0.1:1`,
      });
      t.equal(fs.readFileSync(path.join(held, 'payemu.lock'), 'utf8'), lock, 'the lock of the same process is untouched');
      t.same(lockHolder(held), { pid: holder.pid, started, url: 'http://127.0.0.1:1' });
    },
  );

  t.test("the owner's URL is added to its lock, and named to a second owner", async (t) => {
    const dir = t.testdir();
    const store = await openFileStore(t, dir);
    recordLockUrl(dir, 'http://127.0.0.1:4321');
    t.match(JSON.parse(fs.readFileSync(path.join(dir, 'payemu.lock'), 'utf8')), { pid: process.pid, url: 'http://127.0.0.1:4321' });
    t.same(
      fs.readdirSync(dir).filter((name) => name.includes('tmp')),
      [],
      'no temporary file left',
    );
    await t.rejects(new Store(COLLECTIONS, filePersistence(dir)).open(), /in use by another payemu in this process \(pid \d+\) at http:\/\/127\.0\.0\.1:4321$/);
    await store.closeOnce();
    t.throws(() => recordLockUrl(dir, 'http://127.0.0.1:4321'), /not locked by this process/, 'only the holder writes its URL');
    t.notOk(fs.existsSync(path.join(dir, 'payemu.lock')));
  });
});

/** The pid a data directory's lock names. */
function lockedBy(dir: string): number {
  return (JSON.parse(fs.readFileSync(path.join(dir, 'payemu.lock'), 'utf8')) as { pid: number }).pid;
}

/** Field 22 of /proc/<pid>/stat. */
function procStart(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}
