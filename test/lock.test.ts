import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { runPayemu, startPayemu } from './helpers/cli.js';
import { client } from './helpers/emulator.js';
import { nodeWithoutCoverage } from './helpers/plain-node.js';

/**
 * The data directory's lock, through the real binary: it names the process that holds it (pid
 * and start time) and its URL; a lock whose pid now belongs to another program is taken over;
 * a live payemu's lock refuses a second one, naming its URL. Run `npm run build` first.
 */

t.setTimeout(180_000);
const KEY = 'sk_test_payemu_acme';

function dataDir(t: Test): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-lock-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const readLock = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'payemu.lock'), 'utf8')) as { pid: number; started: number | null; url?: string };

t.test(
  'a lock whose pid now belongs to another program is taken over at start',
  { skip: !fs.existsSync('/proc/self/stat') && 'start times need /proc' },
  async (t) => {
    const dir = dataDir(t);
    const first = await startPayemu(t, ['--data', dir]);
    const session = await client(first.url, KEY).post('/v1/sessions', { amount: 12.34, reference: 'lock-1' });
    t.equal(session.status, 201);
    const left = readLock(dir);
    t.match(left, { pid: first.proc.pid, started: Number, url: first.url }, 'the lock names the process, when it started, and its URL');

    // Killed: the lock stays behind. Its pid is then given to another program (as after a
    // reboot, or in a container): here a `sleep`, which is alive but started at another time.
    first.proc.child.kill('SIGKILL');
    await first.proc.waitForExit();
    const other = spawn('sleep', ['30'], { stdio: 'ignore' });
    t.teardown(() => void other.kill());
    await once(other, 'spawn');
    fs.writeFileSync(path.join(dir, 'payemu.lock'), JSON.stringify({ ...left, pid: other.pid }));

    const second = await startPayemu(t, ['--data', dir]);
    t.match(readLock(dir), { pid: second.proc.pid, started: Number, url: second.url }, 'the new payemu holds the directory');
    t.not(readLock(dir).started, left.started);
    t.equal(other.exitCode, null, 'the other program is left alone');
    t.equal((await client(second.url, KEY).get(`/v1/sessions/${session.body.data.id}`)).status, 200, 'the data is there');
    t.same(await second.proc.stop(), { code: 0, signal: null });
    t.notOk(fs.existsSync(path.join(dir, 'payemu.lock')), 'released at stop');
  },
);

t.test("a second payemu on a live payemu's directory exits 1 naming the first one's URL", async (t) => {
  const dir = dataDir(t);
  const first = await startPayemu(t, ['--data', dir]);
  const lock = fs.readFileSync(path.join(dir, 'payemu.lock'), 'utf8');
  const second = await runPayemu(t, ['start', '--port', '0', '--data', dir]);
  t.equal(second.code, 1);
  t.match(second.stderr, `data directory ${dir} is in use by another payemu (pid ${first.proc.pid}) at ${first.url}`);
  t.notMatch(second.stdout, /listening/);
  t.equal(fs.readFileSync(path.join(dir, 'payemu.lock'), 'utf8'), lock, 'the lock is untouched');
  t.equal((await client(first.url, KEY).get('/_payemu/health')).status, 200, 'the first one still serves');
  t.same(await first.proc.stop(), { code: 0, signal: null });
});

t.test('an older lock file that holds only a pid is still read: a dead pid is taken over', async (t) => {
  const dir = dataDir(t);
  const dead = spawn(...nodeWithoutCoverage(['-e', '']));
  await once(dead, 'exit');
  fs.writeFileSync(path.join(dir, 'payemu.lock'), String(dead.pid));
  const started = await startPayemu(t, ['--data', dir]);
  t.match(readLock(dir), { pid: started.proc.pid, url: started.url });
  t.same(await started.proc.stop(), { code: 0, signal: null });
});
