import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import t, { type Test } from 'tap';
import { prng } from './helpers/prng.js';
import { readAnswer } from './helpers/answer.js';
import { nodeWithoutCoverage } from './helpers/plain-node.js';

/**
 * DESIGN.md section 3: "a process crash (kill -9) at any moment leaves a readable store that
 * holds every acknowledged write". A real payemu process on a temporary data directory is put
 * under concurrent write load (sessions created and paid), killed with SIGKILL while requests
 * are in flight, and restarted on the same directory; every write it answered must be there,
 * as answered. Several rounds per directory, so later rounds restart from a store that was
 * itself recovered from a crash.
 *
 * Runs the built CLI: `npm test` builds first; alone, run `npm run build` before this file.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'payemu.js');
const DIST_INDEX = path.join(ROOT, 'dist', 'index.js');
// Each round starts a real process; on a busy machine a start alone takes seconds.
t.setTimeout(300_000);

if (!fs.existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) {
  throw new Error('test/crash.test.ts runs the built payemu: run `npm run build` first (npm test does).');
}

const KEYS = {
  acme: 'sk_test_payemu_acme',
  acmeLive: 'sk_live_payemu_acme',
  globex: 'sk_test_payemu_globex',
} as const;
type KeyName = keyof typeof KEYS;

const CARDS = { approved: '4242424242424242', declined: '4000000000000002' };

/** A running payemu child process. */
interface Running {
  proc: ChildProcess;
  url: string;
  /** stdout lines after the first (request log, compaction reports). */
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

// Children still running when this process exits (a runner's timeout skips teardowns) go too.
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/**
 * Starts `node <args>` and resolves once its first stdout line says it listens (DESIGN.md
 * section 8). stdout is read to the end, so the logger never blocks on a full pipe.
 */
async function launch(t: Test, args: string[], cwd: string): Promise<Running> {
  const proc = spawn(...nodeWithoutCoverage(args), { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', CI: '1' } });
  children.add(proc);
  proc.once('exit', () => children.delete(proc));
  let stderr = '';
  proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  t.teardown(async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await exited;
  });
  const lines: string[] = [];
  const reader = readline.createInterface({ input: proc.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    reader.once('line', resolve);
    proc.once('exit', (code, signal) => reject(new Error(`payemu exited (${code ?? signal}) before it listened:\n${stderr}`)));
  });
  reader.on('line', (line) => lines.push(line));
  const match = /^payemu listening on (http:\/\/\S+)$/.exec(first);
  if (!match) throw new Error(`unexpected first line: ${first}`);
  return { proc, url: match[1]!, lines, exited, stderr: () => stderr };
}

const startBinary = (t: Test, dir: string) => launch(t, [BIN, 'start', '--port', '0', '--data', dir, '--no-ui'], path.dirname(dir));

/** The library with a tiny compaction threshold: compactions run all the time under load. */
const LIBRARY_SCRIPT = `
const { startEmulator } = await import(${JSON.stringify(pathToFileURL(DIST_INDEX).href)});
const [dir, threshold] = process.argv.slice(2);
const e = await startEmulator({ port: 0, inMemory: false, dataDir: dir, compactAfterBytes: Number(threshold) });
e.bus.on('store.compacted', (result) => console.log('compacted ' + JSON.stringify(result)));
console.log('payemu listening on ' + e.url);
// A clean stop waits for a compaction under way: the test's directory is quiet when it is removed.
process.once('SIGTERM', () => e.close().then(() => process.exit(0)));
`;
async function startLibrary(t: Test, dir: string, threshold: number): Promise<Running> {
  // A script file rather than `node --input-type=module -e`: the compactor is forked with the
  // parent's execArgv, and `--input-type` makes that child fail.
  const script = path.join(path.dirname(dir), 'start-library.mjs');
  fs.writeFileSync(script, LIBRARY_SCRIPT);
  return launch(t, [script, dir, String(threshold)], path.dirname(dir));
}

async function call(url: string, key: string, method: string, route: string, body?: unknown) {
  const res = await fetch(url + route, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return readAnswer(res);
}

interface SessionAck {
  id: string;
  key: KeyName;
  reference: string;
  amount: number;
  currency: string;
  metadata: Record<string, unknown>;
  /** A completion was sent (answered or not): the session may be complete. */
  attempted: boolean;
  payment?: PaymentAck;
}
interface PaymentAck {
  id: number;
  status: string;
  amount: string;
}

/** Everything the emulator acknowledged, over all rounds of one data directory. */
class Ledger {
  readonly sessions = new Map<string, SessionAck>();
  acks = 0;
  get payments(): SessionAck[] {
    return [...this.sessions.values()].filter((s) => s.payment);
  }
}

/**
 * Runs `concurrency` workers that create sessions (three keys: two Sources, both modes) and pay
 * every third one through the control plane, recording each answer in `ledger`. When
 * `shouldKill` says so, right after an answer arrives (the other workers' requests are in
 * flight), the process gets SIGKILL; the workers then stop at their first failed request.
 * Any failure before the kill, or any answer that is not the expected status, fails the test.
 */
async function writeLoad(
  running: Running,
  ledger: Ledger,
  options: { round: string; seed: number; concurrency: number; shouldKill: (acksThisRound: number) => boolean },
): Promise<{ acks: number; inFlightAtKill: number }> {
  const random = prng(options.seed);
  let killed = false;
  let acks = 0;
  let inFlight = 0;
  let inFlightAtKill = 0;
  const acked = () => {
    acks++;
    ledger.acks++;
    if (!killed && options.shouldKill(acks)) {
      killed = true;
      inFlightAtKill = inFlight;
      running.proc.kill('SIGKILL');
    }
  };
  const send = async (key: KeyName, method: string, route: string, body?: unknown) => {
    inFlight++;
    try {
      return await call(running.url, KEYS[key], method, route, body);
    } finally {
      inFlight--;
    }
  };

  const worker = async (w: number) => {
    for (let i = 0; !killed; i++) {
      const key: KeyName = (['acme', 'acme', 'acmeLive', 'globex'] as const)[Math.floor(random() * 4)]!;
      const amount = Math.floor(1 + random() * 9_999_999) / 100;
      const reference = `crash-${options.round}-${w}-${i}-ü✓`;
      const metadata = { round: options.round, worker: w, i, note: 'ünïcødé 𝄞' };
      try {
        const created = await send(key, 'POST', '/v1/sessions', { amount, reference, metadata, customer_email: `w${w}@example.com` });
        if (created.status !== 201) throw new Error(`POST /v1/sessions answered ${created.status}: ${created.text}`);
        const attributes = created.json.data.attributes;
        const session: SessionAck = { id: created.json.data.id, key, reference, amount, currency: attributes.currency, metadata, attempted: false };
        if (attributes.amount !== amount || attributes.reference !== reference) throw new Error(`unexpected answer: ${created.text}`);
        ledger.sessions.set(session.id, session);
        acked();
        if (killed || i % 3 !== 1) continue;

        session.attempted = true;
        const card = random() < 0.75 ? CARDS.approved : CARDS.declined;
        const completed = await send(key, 'POST', `/_payemu/sessions/${session.id}/complete`, { card_number: card });
        if (completed.status !== 200) throw new Error(`complete answered ${completed.status}: ${completed.text}`);
        const payment = completed.json.payment;
        session.payment = { id: payment.id, status: payment.status, amount: payment.amount };
        acked();
      } catch (error) {
        if (killed) return; // the server died under this request: expected
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, (_, w) => worker(w)));
  const exit = await running.exited;
  if (exit.signal !== 'SIGKILL') throw new Error(`payemu ended with ${exit.code ?? exit.signal}, not by SIGKILL:\n${running.stderr()}`);
  return { acks, inFlightAtKill };
}

/** Reads back every acknowledged session and payment; returns the differences (none expected). */
async function verify(url: string, ledger: Ledger): Promise<string[]> {
  const problems: string[] = [];
  const sessions = [...ledger.sessions.values()];
  const check = async (s: SessionAck) => {
    const got = await call(url, KEYS[s.key], 'GET', `/v1/sessions/${s.id}`);
    if (got.status !== 200) return void problems.push(`session ${s.id} (${s.key}): ${got.status} ${got.text.slice(0, 200)}`);
    const a = got.json.data.attributes;
    const expected = {
      amount: s.amount,
      reference: s.reference,
      currency: s.currency,
      metadata: s.metadata,
      status: s.payment?.status === 'PAID' ? 'complete' : s.payment ? 'open' : a.status,
      payment_status: s.payment ? (s.payment.status === 'PAID' ? 'paid' : 'failed') : a.payment_status,
    };
    const actual = { amount: a.amount, reference: a.reference, currency: a.currency, metadata: a.metadata, status: a.status, payment_status: a.payment_status };
    if (JSON.stringify(actual) !== JSON.stringify(expected)) problems.push(`session ${s.id}: ${JSON.stringify(actual)} != ${JSON.stringify(expected)}`);
    if (!s.attempted && (a.status !== 'open' || a.payment_status !== 'unpaid'))
      problems.push(`session ${s.id} was never paid but is ${a.status}/${a.payment_status}`);

    if (!s.payment) return;
    const payment = await call(url, KEYS[s.key], 'GET', `/v1/payments/${encodeURIComponent(s.reference)}`);
    if (payment.status !== 200) return void problems.push(`payment ${s.reference}: ${payment.status} ${payment.text.slice(0, 200)}`);
    const p = payment.json.data;
    const want = { id: String(s.payment.id), status: s.payment.status, amount: s.payment.amount, reference: s.reference };
    const have = { id: p.id, status: p.attributes.status, amount: p.attributes.amount, reference: p.attributes.reference };
    if (JSON.stringify(want) !== JSON.stringify(have)) problems.push(`payment ${s.reference}: ${JSON.stringify(have)} != ${JSON.stringify(want)}`);
  };
  for (let i = 0; i < sessions.length; i += 32) await Promise.all(sessions.slice(i, i + 32).map(check));

  // Payment ids increase per store: one given out before a crash is never given again.
  const ids = ledger.payments.map((s) => s.payment!.id);
  if (new Set(ids).size !== ids.length) problems.push(`payment ids were reused: ${ids.sort((a, b) => a - b).join(',')}`);
  return problems;
}

t.test('SIGKILL under write load, restart: every acknowledged write is there (payemu start)', async (t) => {
  const dir = path.join(t.testdir(), 'data');
  const ledger = new Ledger();
  const kinds = [
    { kill: 150, concurrency: 16 },
    { kill: 1, concurrency: 16 }, // right after the first answer of a fresh restart
    { kill: 200, concurrency: 24 },
  ];
  // PAYEMU_CRASH_ROUNDS=20 runs the long version that docs/reliability.md reports.
  const rounds = Array.from({ length: Number(process.env.PAYEMU_CRASH_ROUNDS ?? kinds.length) }, (_, n) => kinds[n % kinds.length]!);
  for (const [n, round] of rounds.entries()) {
    const running = await startBinary(t, dir);
    if (n > 0)
      t.same(
        await verify(running.url, ledger),
        [],
        `round ${n + 1}: after the restart, all ${ledger.sessions.size} sessions and ${ledger.payments.length} payments are there`,
      );
    if (n === 0) {
      // While it runs, a second payemu on the same directory is refused.
      const second = spawn(...nodeWithoutCoverage([BIN, 'start', '--port', '0', '--data', dir, '--no-ui']), { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      second.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const code = await new Promise((resolve) => second.once('exit', resolve));
      t.equal(code, 1, 'a second payemu on the same data directory exits with 1');
      t.match(stderr, `payemu: data directory ${dir} is in use by another payemu (pid ${running.proc.pid})`);
    }
    const result = await writeLoad(running, ledger, {
      round: `r${n}`,
      seed: 1000 + n,
      concurrency: round.concurrency,
      shouldKill: (acks) => acks >= round.kill,
    });
    t.ok(result.acks >= round.kill, `round ${n + 1}: killed after ${result.acks} answers with ${result.inFlightAtKill} requests in flight`);
  }

  const last = await startBinary(t, dir);
  t.same(await verify(last.url, ledger), [], `finally: all ${ledger.sessions.size} sessions and ${ledger.payments.length} payments are there`);
  t.ok(
    ledger.payments.some((s) => s.payment!.status === 'PAID') && ledger.payments.some((s) => s.payment!.status === 'FAILED'),
    'paid and declined payments were written',
  );

  // A clean stop after all that: exit 0 and the lock released.
  last.proc.kill('SIGTERM');
  t.same(await last.exited, { code: 0, signal: null }, 'SIGTERM stops it with exit code 0');
  t.notOk(fs.existsSync(path.join(dir, 'payemu.lock')), 'the lock is released');
});

t.test('SIGKILL while the journal is being compacted (library, tiny threshold): every acknowledged write is there', async (t) => {
  const dir = path.join(t.testdir(), 'data');
  const ledger = new Ledger();
  const compactions = (running: Running) => running.lines.filter((line) => line.startsWith('compacted '));
  for (let n = 0; n < 2; n++) {
    const running = await startLibrary(t, dir, 4096);
    if (n > 0)
      t.same(
        await verify(running.url, ledger),
        [],
        `round ${n + 1}: after the restart, all ${ledger.sessions.size} sessions and ${ledger.payments.length} payments are there`,
      );
    // Killed once a compaction has run in this process: with a 4 KiB threshold the next one
    // is under way, so the kill lands in the middle of it (or of the rotation before it).
    const result = await writeLoad(running, ledger, {
      round: `c${n}`,
      seed: 2000 + n,
      concurrency: 16,
      shouldKill: (acks) => acks >= 80 && compactions(running).length >= 1,
    });
    const reports = compactions(running);
    t.ok(reports.length >= 1, `round ${n + 1}: ${reports.length} compactions, killed after ${result.acks} answers with ${result.inFlightAtKill} in flight`);
    t.same(
      reports.filter((line) => !line.startsWith('compacted {"ok":true')),
      [],
      'every compaction succeeded',
    );
  }
  const last = await startLibrary(t, dir, 4096);
  t.same(await verify(last.url, ledger), [], `finally: all ${ledger.sessions.size} sessions and ${ledger.payments.length} payments are there`);
  const files = fs.readdirSync(dir);
  t.ok(files.includes('snapshot.json'), `the directory holds a snapshot: ${files.join(' ')}`);
  // Before the test's directory is removed: a compaction the start began may still be writing in it.
  last.proc.kill('SIGTERM');
  t.same(await last.exited, { code: 0, signal: null }, 'the library closes cleanly, a compaction under way included');
});
