import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { waitUntilRefused } from './helpers/cli.js';
import { withoutCoverage } from './helpers/plain-node.js';

/**
 * `npx payemu start` is three processes: npx (npm), the shell npm runs the bin with
 * (`sh -c payemu start ...`), and payemu's node. SIGTERM to npx (what CI runners and process
 * managers send) is passed to the shell, which dies without passing it on: payemu is orphaned.
 * It notices (its parent is gone) and stops as on SIGTERM: the stop line, the lock released,
 * the port closed, the process gone. Run here through a real npx, in a project whose
 * node_modules/payemu links to this checkout (what an install of the tarball gives, without
 * the install). Nothing sleeps: npx's pipes close only once every process holding them (payemu
 * too) has ended.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function project(t: Test): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-npx-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "app", "version": "1.0.0", "private": true }\n');
  fs.mkdirSync(path.join(dir, 'node_modules/.bin'), { recursive: true });
  fs.symlinkSync(ROOT, path.join(dir, 'node_modules/payemu'));
  fs.symlinkSync(
    path.relative(path.join(dir, 'node_modules/.bin'), path.join(dir, 'node_modules/payemu/bin/payemu.js')),
    path.join(dir, 'node_modules/.bin/payemu'),
  );
  return dir;
}

interface Npx {
  child: ChildProcess;
  stdout: string[];
  stderr: string;
  /** The next stdout line (rejects if every process holding the pipe ended first). */
  line(): Promise<string>;
  /** Resolves when npx has exited and every process that held its pipes (payemu too) has ended. */
  closed: Promise<void>;
}

/** `npx --no -- payemu ...args` in `cwd`, without tap's coverage hooks (NODE_OPTIONS). */
function npx(t: Test, cwd: string, args: readonly string[], pids: number[]): Npx {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  const child = spawn(...withoutCoverage('npx', ['--no', '--', 'payemu', ...args]), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const proc: Npx = {
    child,
    stdout: [],
    stderr: '',
    closed: new Promise((resolve) => child.once('close', () => resolve())),
    async line() {
      for (;;) {
        if (taken < proc.stdout.length) return proc.stdout[taken++]!;
        if (ended) throw new Error(`npx payemu ${args.join(' ')} ended before another line.\nstdout:\n${proc.stdout.join('\n')}\nstderr:\n${proc.stderr}`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
  let taken = 0;
  let ended = false;
  let partial = '';
  let waiters: (() => void)[] = [];
  const wake = () => {
    const all = waiters;
    waiters = [];
    for (const w of all) w();
  };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    proc.stdout.push(...parts);
    wake();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (proc.stderr += chunk));
  void proc.closed.then(() => {
    ended = true;
    wake();
  });
  // Whatever happens, nothing this test started is left running.
  t.teardown(() => {
    for (const pid of [child.pid!, ...pids]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone already */
      }
    }
  });
  return proc;
}

/** Whether `pid` still runs. An orphan that exited stays a zombie until init reaps it: gone too. */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\S+ \(.*\) [ZX]/s.test(stat);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && fs.existsSync('/proc/self/stat')) return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether `pid` has ended within `ms`: a process whose pipes have closed may still be inside its
 * exit for a moment (the kernel closes its files before it turns zombie), which a loaded machine
 * stretches (seen once on Node 24 in CI).
 */
async function endsWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  return !alive(pid);
}

/** Fails the test after `ms` instead of hanging on a process that never ends. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

t.test('SIGTERM to `npx payemu start` stops payemu: exit through the stop line, lock released, port closed, no process left', async (t) => {
  const cwd = project(t);
  const data = path.join(cwd, '.payemu');
  const pids: number[] = [];
  const proc = npx(t, cwd, ['start', '--port', '0', '--no-ui', '--data', data], pids);
  const first = await within(60_000, 'the readiness line', proc.line());
  t.match(first, /^payemu listening on http:\/\/127\.0\.0\.1:\d+$/);
  const url = first.split(' ').at(-1)!;
  const holder = JSON.parse(fs.readFileSync(path.join(data, 'payemu.lock'), 'utf8')) as { pid: number };
  pids.push(holder.pid);
  t.not(holder.pid, proc.child.pid, 'payemu runs in its own process under npx');

  // A write before the stop, to be found after it.
  const created = await fetch(`${url}/v1/sessions`, {
    method: 'POST',
    headers: { Authorization: 'Bearer sk_test_payemu_acme', 'Content-Type': 'application/json' },
    body: JSON.stringify({ amount: 10, reference: 'orphan-1' }),
  });
  t.equal(created.status, 201);

  proc.child.kill('SIGTERM'); // npx only, as a CI runner does
  await within(60_000, 'every process of the npx tree ended (payemu was left running)', proc.closed);
  t.ok(await endsWithin(holder.pid, 10_000), 'the payemu process is gone');
  t.notOk(fs.existsSync(path.join(data, 'payemu.lock')), 'the lock is released');
  await waitUntilRefused(Number(new URL(url).port));
  t.equal(proc.stdout.at(-1), 'payemu stopped', 'it stopped through the clean stop');
  t.match(proc.stderr, /payemu: the process that started it \(pid \d+\) is gone; stopping/);
  t.match(
    fs
      .readdirSync(data)
      .filter((f) => f.startsWith('journal'))
      .map((f) => fs.readFileSync(path.join(data, f), 'utf8'))
      .join(''),
    /orphan-1/,
    'the write is in the journal',
  );
});

t.test('SIGTERM to `npx payemu exec -- CMD`: the command gets SIGTERM, payemu stops, no process left', async (t) => {
  const cwd = project(t);
  const pids: number[] = [];
  // The handler first, then the line the test waits for: a command descheduled between the two
  // (a loaded CI machine) would otherwise die of the SIGTERM it was about to handle.
  const command =
    'process.on("SIGTERM", () => { console.log("command got SIGTERM"); process.exit(0); }); setInterval(() => {}, 1000); console.log(process.pid, process.ppid)';
  const proc = npx(t, cwd, ['exec', '--', process.execPath, '-e', command], pids);
  const [commandPid, execPid] = (await within(60_000, 'the command started', proc.line())).split(' ').map(Number) as [number, number];
  pids.push(commandPid, execPid);
  t.match(proc.stderr, /payemu listening on http:\/\/127\.0\.0\.1:\d+/);

  proc.child.kill('SIGTERM');
  await within(60_000, 'every process of the npx tree ended (payemu exec was left running)', proc.closed);
  t.equal(proc.stdout.at(-1), 'command got SIGTERM', 'payemu passed SIGTERM on to the command');
  t.ok(await endsWithin(execPid, 10_000), 'payemu exec is gone');
  t.ok(await endsWithin(commandPid, 10_000), 'the command is gone');
});
