import { fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { nodeWithoutCoverage } from '../../test/helpers/plain-node.js';
import { filePersistence } from './file-persistence.js';
import { encodeChanges, listSegments, segmentPath } from './files.js';
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
    const holder = spawn(...nodeWithoutCoverage(['-e', 'process.stdin.resume()']), { stdio: ['pipe', 'ignore', 'ignore'] });
    t.teardown(() => void holder.kill());
    await once(holder, 'spawn');
    fs.writeFileSync(path.join(dir, 'payemu.lock'), String(holder.pid));
    const store = new Store(COLLECTIONS, filePersistence(dir));
    await t.rejects(store.open(), { message: `data directory ${dir} is in use by another payemu (pid ${holder.pid})` });
    t.equal(fs.readFileSync(path.join(dir, 'payemu.lock'), 'utf8'), String(holder.pid), 'the lock is untouched');
    t.same(listSegments(dir), [], 'nothing was written');
  });

  t.test('processes that find the same stale lock at the same moment: exactly one takes it over', async (t) => {
    const dead = spawn(...nodeWithoutCoverage(['-e', '']));
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
    const dead = spawn(...nodeWithoutCoverage(['-e', '']));
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
    const dead = spawn(...nodeWithoutCoverage(['-e', '']));
    await once(dead, 'exit');
    const taker = spawn(...nodeWithoutCoverage(['-e', 'process.stdin.resume()']), { stdio: ['pipe', 'ignore', 'ignore'] });
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
    const dead = spawn(...nodeWithoutCoverage(['-e', '']));
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
      const holder = spawn(...nodeWithoutCoverage(['-e', 'process.stdin.resume()']), { stdio: ['pipe', 'ignore', 'ignore'] });
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
