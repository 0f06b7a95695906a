import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';
import { whenBodyDone } from './body-done.js';
import { client } from './emulator.js';
import { checkDriftLog } from './openapi.js';
import { nodeWithoutCoverage } from './plain-node.js';

/** The published binary; it runs the bundle in dist/bin/, so `npm run build` first (`npm test` does). */
export const BIN = fileURLToPath(new URL('../../bin/payemu.js', import.meta.url));
const DIST_MAIN = fileURLToPath(new URL('../../dist/bin/cli.cjs', import.meta.url));

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SpawnOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
}

/**
 * A running `payemu` child process whose stdout is read line by line. Lines are queued as they
 * arrive; `nextLine` and `waitForLine` take them in order, so nothing printed is ever missed
 * and no test needs to sleep. Killed (SIGKILL) when the test's body is done, if still running.
 *
 * The drift guard: every answer the process's client receives is logged (PAYEMU_DRIFT_LOG, a
 * file of its own) and checked against the OpenAPI document once it has ended. `waitForExit`
 * (so `runPayemu` and `stop`) rejects with the answers that left their schema; for a process
 * that nobody waited for, the teardown reports them on stderr and fails the test file (a throw
 * there would skip the teardowns that close the test's servers).
 */
export class PayemuProcess {
  readonly child: ChildProcess;
  /** Every stdout line so far, taken or not. */
  readonly lines: string[] = [];
  stderr = '';
  readonly exited: Promise<Exit>;
  private exit: Exit | undefined;
  private taken = 0;
  private partial = '';
  private waiters: (() => void)[] = [];
  private readonly driftDir: string;
  private readonly args: readonly string[];
  private drift: string[] | undefined;
  private driftReported = false;

  constructor(t: Test, args: readonly string[], options: SpawnOptions = {}) {
    this.args = args;
    if (!fs.existsSync(DIST_MAIN)) throw new Error('dist/ is missing: run `npm run build` before the CLI tests (npm test does).');
    this.driftDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-drift-'));
    this.child = spawn(...nodeWithoutCoverage([BIN, ...args]), {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, PAYEMU_DRIFT_LOG: path.join(this.driftDir, 'answers.jsonl'), ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (this.partial + chunk).split('\n');
      this.partial = parts.pop()!;
      this.lines.push(...parts.map((line) => line.replace(/\r$/, '')));
      this.wake();
    });
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise<Exit>((resolve) => {
      this.child.once('close', (code, signal) => {
        if (this.partial) this.lines.push(this.partial);
        this.partial = '';
        this.exit = { code, signal };
        this.wake();
        resolve(this.exit);
      });
    });
    // 'exit', not 'close': a grandchild holding the pipes must not hold up the teardown.
    const died = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    const end = async () => {
      if (!(this.exit || this.child.exitCode !== null || this.child.signalCode !== null)) {
        this.child.kill('SIGKILL');
        await died;
      }
    };
    // Before tap removes the test's directory, as `emulator()` closes its payemu.
    whenBodyDone(t, end);
    t.teardown(async () => {
      await end();
      const drift = this.driftProblems();
      if (drift.length > 0 && !this.driftReported) {
        this.driftReported = true;
        process.exitCode = 1;
        console.error(`${t.fullname}: payemu ${args.join(' ')}\n${drift.join('\n')}`);
      }
    });
  }

  /**
   * What the drift guard found in the answers this process received (none: []). Read once the
   * process has ended (its log is then whole); the log and its folder are removed.
   */
  driftProblems(): string[] {
    if (this.drift) return this.drift;
    const file = path.join(this.driftDir, 'answers.jsonl');
    this.drift = fs.existsSync(file) ? checkDriftLog(fs.readFileSync(file, 'utf8')) : [];
    fs.rmSync(this.driftDir, { recursive: true, force: true });
    return this.drift;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** All of stdout so far. */
  get stdout(): string {
    return this.lines.join('\n');
  }

  /**
   * The next stdout line not taken yet; rejects if the process ends first, or prints nothing
   * for WAIT_LIMIT_MS (a hang, not slowness: the failure then shows what was printed).
   */
  async nextLine(): Promise<string> {
    const deadline = Date.now() + WAIT_LIMIT_MS;
    for (;;) {
      if (this.taken < this.lines.length) return this.lines[this.taken++]!;
      if (this.exit) throw new Error(`payemu exited (${this.describeExit()}) before printing another line.\n${this.output()}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`payemu printed no line for ${WAIT_LIMIT_MS / 1000} s.\n${this.output()}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Resolves when the process has ended; kills it and rejects after WAIT_LIMIT_MS. */
  async waitForExit(): Promise<Exit> {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.child.kill('SIGKILL');
        reject(new Error(`payemu did not exit within ${WAIT_LIMIT_MS / 1000} s (killed).\n${this.output()}`));
      }, WAIT_LIMIT_MS);
    });
    let exit: Exit;
    try {
      exit = await Promise.race([this.exited, limit]);
    } finally {
      clearTimeout(timer);
    }
    const drift = this.driftProblems();
    if (drift.length > 0 && !this.driftReported) {
      this.driftReported = true;
      throw new Error(`payemu ${this.args.join(' ')} received answers that leave the OpenAPI document:\n${drift.join('\n')}`);
    }
    return exit;
  }

  /** Takes lines until one matches; returns it. */
  async waitForLine(match: RegExp | ((line: string) => boolean)): Promise<string> {
    const test = typeof match === 'function' ? match : (line: string) => match.test(line);
    for (;;) {
      const line = await this.nextLine().catch((error: Error) => {
        throw new Error(`waiting for a line matching ${String(match)}: ${error.message}`);
      });
      if (test(line)) return line;
    }
  }

  /** Takes lines until one is a JSON object satisfying `match`; returns it parsed. */
  async waitForJson<T = any>(match: (value: any) => boolean): Promise<T> {
    const line = await this.waitForLine((l) => {
      try {
        return match(JSON.parse(l));
      } catch {
        return false;
      }
    });
    return JSON.parse(line) as T;
  }

  /** Sends a signal and waits for the process to end. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<Exit> {
    if (!this.exit) this.child.kill(signal);
    return this.waitForExit();
  }

  /** What a failure shows of the process: its last 20,000 characters of each stream (tap chokes on megabytes of them). */
  private output(): string {
    const tail = (text: string) => (text.length > 20_000 ? `[${text.length - 20_000} characters before]\n${text.slice(-20_000)}` : text);
    return `args: ${this.args.join(' ')}\nstdout:\n${tail(this.stdout)}\nstderr:\n${tail(this.stderr)}`;
  }

  private describeExit(): string {
    return this.exit?.signal ? `signal ${this.exit.signal}` : `code ${this.exit?.code}`;
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** How long a wait on the child may last before it counts as a hang (generous: CI machines are slow). */
const WAIT_LIMIT_MS = 90_000;

/** Spawns `payemu ...args`. */
export function spawnPayemu(t: Test, args: readonly string[], options: SpawnOptions = {}): PayemuProcess {
  return new PayemuProcess(t, args, options);
}

export interface Started {
  proc: PayemuProcess;
  /** `http://HOST:PORT` from the readiness line. */
  url: string;
  port: number;
  /** The readiness line itself. */
  first: string;
}

const READY = /^payemu listening on (http:\/\/\S+:(\d+))$/;

/**
 * Runs `payemu start ...args` (add `--port 0` yourself or use the default here) and waits for
 * the readiness line of DESIGN.md section 8; with `--json` among the args, the JSON form.
 */
export async function startPayemu(t: Test, args: readonly string[] = [], options: SpawnOptions = {}): Promise<Started> {
  const full = ['start', ...(args.includes('--port') || args.includes('-p') ? [] : ['--port', '0']), ...args];
  const proc = spawnPayemu(t, full, options);
  const first = await proc.nextLine();
  let url: string;
  if (full.includes('--json')) {
    const parsed = JSON.parse(first) as { type: string; url: string };
    if (parsed.type !== 'listening') throw new Error(`first line is not the listening object: ${first}`);
    url = parsed.url;
  } else {
    const match = READY.exec(first);
    if (!match) throw new Error(`first line is not the readiness line: ${first}\nstderr:\n${proc.stderr}`);
    url = match[1]!;
  }
  return { proc, url, port: Number(new URL(url).port), first };
}

/** Runs `payemu ...args` to completion (no stdin); returns its exit and output. */
export async function runPayemu(t: Test, args: readonly string[], options: SpawnOptions = {}): Promise<Exit & { stdout: string; stderr: string }> {
  const proc = spawnPayemu(t, args, options);
  const exit = await proc.waitForExit();
  return { ...exit, stdout: proc.stdout, stderr: proc.stderr };
}

/** Resolves once nothing accepts connections on `port` any more (the server stopped listening). */
export async function waitUntilRefused(port: number, host = '127.0.0.1'): Promise<void> {
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ port, host });
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    if (refused) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Creates a session on the payemu at `url` and pays it with the approved test card; returns the session id. */
export async function paidSession(url: string, reference: string, key = 'sk_test_payemu_acme'): Promise<string> {
  const api = client(url, key);
  const session = await api.post('/v1/sessions', { amount: 12.34, reference });
  if (session.status !== 201) throw new Error(`session not created: ${session.text}`);
  const completed = await api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: '4242424242424242' });
  if (completed.status !== 200) throw new Error(`session not paid: ${completed.text}`);
  return session.body.data.id as string;
}
