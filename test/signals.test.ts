import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { BIN } from './helpers/cli.js';

/**
 * A stop right after start is clean. SIGINT and SIGTERM are handled from the start of
 * `payemu start` and `payemu exec`, not from the readiness line on: a script that stops payemu
 * the instant it reads that line, or while it is still starting, gets exit code 0 (exec: 128 + n),
 * never a death by the signal itself, and the data directory's lock is released.
 */

const READY = /^payemu listening on http:\/\/\S+:\d+$/;

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface Plain {
  child: ChildProcess;
  lines: string[];
  stderr: string;
  /** Resolves when the process has ended; kills it and rejects after a minute (a hang). */
  exit(): Promise<Exit>;
}

/**
 * Spawns `payemu ...args` as its users run it. Not through test/helpers/cli.ts: tap hands its
 * coverage hooks to every child process (NODE_OPTIONS, put back by its own spawn wrapper), and
 * one of them listens for SIGINT and SIGTERM from the child's first moment, which hides the
 * very window under test; `env -u` takes them off. `onLine` runs in the turn the line arrives,
 * so a signal sent from it is as prompt as a script's.
 */
function spawnPlain(t: Test, args: readonly string[], onLine: (line: string, proc: Plain) => void = () => {}): Plain {
  const child = spawn('/usr/bin/env', ['-u', 'NODE_OPTIONS', process.execPath, BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined },
  });
  const exited = new Promise<Exit>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  const proc: Plain = {
    child,
    lines: [],
    stderr: '',
    async exit() {
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`payemu ${args.join(' ')} did not exit within a minute.\nstdout:\n${proc.lines.join('\n')}\nstderr:\n${proc.stderr}`));
        }, 60_000);
      });
      try {
        return await Promise.race([exited, limit]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
  let partial = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    for (const line of parts) {
      proc.lines.push(line);
      onLine(line, proc);
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (proc.stderr += chunk));
  t.teardown(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await exited;
  });
  return proc;
}

/** `payemu start` on `dir` until its readiness line; returns its URL. */
async function startPlain(t: Test, args: readonly string[]): Promise<{ proc: Plain; url: string }> {
  let ready: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => (ready = resolve));
  const proc = spawnPlain(t, ['start', '--port', '0', '--no-ui', ...args], (line) => READY.test(line) && ready(line.split(' ').at(-1)!));
  const exitedFirst = proc.exit().then((exit) => {
    throw new Error(`payemu exited (${JSON.stringify(exit)}) before its readiness line: ${proc.stderr}`);
  });
  return { proc, url: await Promise.race([url, exitedFirst]) };
}

function tempDir(t: Test): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-signals-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A config file outside the data directory. With --config, start-up waits for the config
 * watcher to be ready after the lock is taken, so a signal sent on the lock lands while
 * payemu is still starting (without it, start-up after the lock is mostly synchronous and
 * the signal is often handled only after the readiness line).
 */
function configFile(t: Test): string {
  const file = path.join(tempDir(t), 'payemu.config.json');
  fs.writeFileSync(file, '{}\n');
  return file;
}

function lockFile(dir: string): string {
  return path.join(dir, 'payemu.lock');
}

/**
 * Resolves as soon as payemu has created anything in `dir` (its lock first of all). The lock
 * is taken inside start-up, after the signal handlers are installed and before the server
 * listens: a signal sent then falls in the middle of start-up.
 */
function onFirstFile(dir: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = fs.watch(dir, () => {
      watcher.close();
      resolve();
    });
  });
}

t.test('SIGINT or SIGTERM the instant the readiness line arrives: exit 0 every time, the lock released', async (t) => {
  const dir = tempDir(t);
  const rounds = 16;
  for (let round = 0; round < rounds; round++) {
    const signal: NodeJS.Signals = round % 2 === 0 ? 'SIGINT' : 'SIGTERM';
    // Every round starts on the same data directory: each one is a restart after the last.
    const proc = spawnPlain(t, ['start', '--port', '0', '--no-ui', '--data', dir], (_line, p) => p.lines.length === 1 && p.child.kill(signal));
    const exit = await proc.exit();
    t.match(proc.lines[0], READY, `round ${round}: the readiness line`);
    t.same(exit, { code: 0, signal: null }, `round ${round}: ${signal} right after readiness exits 0, not by the signal ${proc.stderr}`);
    t.equal(proc.lines.at(-1), 'payemu stopped', `round ${round}: the stop line was written`);
    t.notOk(fs.existsSync(lockFile(dir)), `round ${round}: the lock is released`);
  }
  // And the directory is usable afterwards.
  const { proc, url } = await startPlain(t, ['--data', dir]);
  t.equal((await fetch(`${url}/_payemu/health`)).status, 200, 'a restart on the same data directory serves');
  proc.child.kill('SIGTERM');
  t.same(await proc.exit(), { code: 0, signal: null });
});

t.test('the same with --json', async (t) => {
  const dir = tempDir(t);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const proc = spawnPlain(t, ['start', '--port', '0', '--no-ui', '--json', '--data', dir], (_line, p) => p.lines.length === 1 && p.child.kill(signal));
    t.same(await proc.exit(), { code: 0, signal: null }, `${signal}: exit 0 ${proc.stderr}`);
    t.match(JSON.parse(proc.lines[0]!), { type: 'listening' });
    t.match(JSON.parse(proc.lines.at(-1)!), { type: 'stopped' });
    t.notOk(fs.existsSync(lockFile(dir)), 'the lock is released');
  }
});

t.test('a browser beside the dashboard (a connection it has sent nothing on, the live event stream) does not hold up the stop', async (t) => {
  const dir = tempDir(t);
  // With --config, payemu also stops its config watcher before the server.
  const { proc, url } = await startPlain(t, ['--data', dir, '--config', configFile(t)]);
  const { port, host } = new URL(url);
  const open = (request?: string) =>
    new Promise<net.Socket>((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => resolve(socket));
      socket.on('error', () => {}); // closed by the stop
      if (request) socket.write(request);
    });
  const preconnect = await open();
  const stream = await open(`GET /_payemu/events/stream?key=sk_test_payemu_acme HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
  await new Promise((resolve) => stream.once('data', resolve));
  proc.child.kill('SIGINT');
  t.same(await proc.exit(), { code: 0, signal: null }, `stopped, exit 0 ${proc.stderr}`);
  t.equal(proc.lines.at(-1), 'payemu stopped');
  t.notOk(fs.existsSync(lockFile(dir)), 'the lock is released');
  preconnect.destroy();
});

t.test('a signal during start-up (the lock just taken, not listening yet): exit 0, the lock released', async (t) => {
  const config = configFile(t);
  let unprinted = 0;
  for (let round = 0; round < 6; round++) {
    const dir = tempDir(t);
    const signal: NodeJS.Signals = round % 2 === 0 ? 'SIGINT' : 'SIGTERM';
    const started = onFirstFile(dir);
    const proc = spawnPlain(t, ['start', '--port', '0', '--no-ui', '--config', config, '--data', dir]);
    await started;
    proc.child.kill(signal);
    const exit = await proc.exit();
    if (proc.lines.length === 0) unprinted++;
    t.same(exit, { code: 0, signal: null }, `round ${round}: ${signal} during start-up exits 0, not by the signal ${proc.stderr}`);
    t.notOk(fs.existsSync(lockFile(dir)), `round ${round}: the lock is released`);
    t.equal(proc.stderr, '', `round ${round}: nothing on stderr`);
    t.ok(proc.lines.length === 0 || READY.test(proc.lines[0]!), `round ${round}: nothing printed, or the readiness line first`);
  }
  // Stopped before it was ready, payemu prints nothing; stopped just after, it prints as usual.
  t.comment(`${unprinted} of 6 stopped before the readiness line`);
  const dir = tempDir(t);
  const started = onFirstFile(dir);
  const early = spawnPlain(t, ['start', '--port', '0', '--no-ui', '--config', config, '--data', dir]);
  await started;
  early.child.kill('SIGTERM');
  t.same(await early.exit(), { code: 0, signal: null });
  const { proc } = await startPlain(t, ['--data', dir]);
  proc.child.kill('SIGINT');
  t.same(await proc.exit(), { code: 0, signal: null }, 'a restart on the same directory starts and stops');
});

t.test('payemu exec: a signal during start-up ends it with 128 + n (not 0: the command never ran, or got the signal), the lock released', async (t) => {
  const config = configFile(t);
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    const dir = tempDir(t);
    const started = onFirstFile(dir);
    // The command waits until it is stopped; if the signal comes after it started, payemu
    // passes it on, and exec exits 128 + n all the same.
    const proc = spawnPlain(t, ['exec', '--config', config, '--data', dir, '--', process.execPath, '-e', 'setInterval(() => {}, 1000)']);
    await started;
    proc.child.kill(signal);
    t.same(await proc.exit(), { code, signal: null }, `${signal}: exit ${code}, not by the signal ${proc.stderr}`);
    t.notOk(fs.existsSync(lockFile(dir)), 'the lock is released');
  }
});
