import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import t, { type Test } from 'tap';
import { readAnswer } from '../helpers/answer.js';
import { startPayemu, type Started } from '../helpers/cli.js';
import { client, dailySchedules } from '../helpers/emulator.js';
import { nodeWithoutCoverage } from '../helpers/plain-node.js';
import { prng } from '../helpers/prng.js';

/**
 * Named namespaces survive a crash with the default's guarantees (docs/storage.md): each keeps
 * its state in DATA/namespaces/NAME, written a line per transaction before the answer. A real
 * payemu (the built CLI: `npm run build` first) is killed with SIGKILL while several namespaces
 * write at once, during one namespace's long clock advance, and right after a namespace's first
 * answer or its deletion's; the restart on the same directory must hold every acknowledged write.
 */

// Each round starts a real process; on a busy machine a start alone takes seconds.
t.setTimeout(300_000);

const KEY = 'sk_test_payemu_acme';
const START = '2027-01-01T12:00:00.000000Z';
const DAY = 86_400_000;
const keyOf = (namespace: string | undefined) => (namespace === undefined ? KEY : `${KEY}~${namespace}`);

const start = (t: Test, dir: string): Promise<Started> => startPayemu(t, ['--data', dir, '--clock-start', START, '--freeze-clock', '--no-ui']);

/** A request with fetch (a process about to be killed answers nothing the drift guard could check). */
async function call(url: string, namespace: string | undefined, method: string, route: string, body?: unknown) {
  const res = await fetch(url + route, {
    method,
    headers: { Authorization: `Bearer ${keyOf(namespace)}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return readAnswer(res);
}

interface Ack {
  namespace: string | undefined;
  session: string;
  reference: string;
  amount: number;
  /** A completion was sent (answered or not). */
  attempted: boolean;
  payment?: { id: number; status: string };
}

/** Everything acknowledged, over the rounds of one data directory. */
class Ledger {
  readonly acks: Ack[] = [];
  paymentIds(namespace: string | undefined): number[] {
    return this.acks.filter((a) => a.namespace === namespace && a.payment).map((a) => a.payment!.id);
  }
}

/**
 * `perNamespace` workers in each of `namespaces` create sessions and pay every third one, all at
 * once; once `kill` answers have arrived the process gets SIGKILL (the other requests in flight).
 * The workers stop at their first failed request after the kill.
 */
async function writeLoad(
  running: Running,
  ledger: Ledger,
  namespaces: (string | undefined)[],
  o: { round: string; kill: (answers: number) => boolean; perNamespace: number; seed: number },
) {
  const random = prng(o.seed);
  let answers = 0;
  // Killed here, or by the caller.
  const killed = () => running.child.killed;
  const answered = () => {
    if (o.kill(++answers) && !killed()) running.child.kill('SIGKILL');
  };
  const worker = async (namespace: string | undefined, w: number) => {
    for (let i = 0; !killed(); i++) {
      const reference = `${o.round}-${namespace ?? 'default'}-${w}-${i}`;
      const amount = Math.floor(1 + random() * 99_999) / 100;
      try {
        const created = await call(running.url, namespace, 'POST', '/v1/sessions', { amount, reference });
        if (created.status !== 201) throw new Error(`${namespace}: POST /v1/sessions answered ${created.status}: ${created.text}`);
        const ack: Ack = { namespace, session: created.json.data.id, reference, amount, attempted: false };
        ledger.acks.push(ack);
        answered();
        if (killed() || i % 3 !== 1) continue;
        ack.attempted = true;
        const completed = await call(running.url, namespace, 'POST', `/_payemu/sessions/${ack.session}/complete`, { card_number: '4242424242424242' });
        if (completed.status !== 200) throw new Error(`${namespace}: complete answered ${completed.status}: ${completed.text}`);
        ack.payment = { id: completed.json.payment.id, status: completed.json.payment.status };
        answered();
      } catch (error) {
        if (killed()) return; // the server died under this request: expected
        throw error;
      }
    }
  };
  await Promise.all(namespaces.flatMap((namespace) => Array.from({ length: o.perNamespace }, (_, w) => worker(namespace, w))));
  const exit = await running.exited;
  if (exit.signal !== 'SIGKILL') throw new Error(`payemu ended with ${exit.code ?? exit.signal}, not by SIGKILL:\n${running.stderr()}`);
  return answers;
}

/** A payemu process to load and kill: the CLI's (`running(started)`) or the library's (`startLibrary`). */
interface Running {
  url: string;
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}
/** The library with a tiny compaction threshold, each compaction reported on stdout (a named namespace's with its name). */
const LIBRARY_SCRIPT = `
const { startEmulator } = await import(${JSON.stringify(pathToFileURL(fileURLToPath(new URL('../../dist/index.js', import.meta.url))).href)});
const [dir, threshold] = process.argv.slice(2);
const e = await startEmulator({ port: 0, inMemory: false, dataDir: dir, compactAfterBytes: Number(threshold) });
e.bus.on('store.compacted', (result) => console.log('compacted ' + JSON.stringify(result)));
console.log('payemu listening on ' + e.url);
// A clean stop waits for a compaction under way: the test's directory is quiet when it is removed.
process.once('SIGTERM', () => e.close().then(() => process.exit(0)));
`;

async function startLibrary(t: Test, dir: string, threshold: number): Promise<Running & { lines: string[] }> {
  // A script file: the compactor is forked with the parent's execArgv (test/crash.test.ts).
  const script = path.join(path.dirname(dir), 'start-library.mjs');
  fs.writeFileSync(script, LIBRARY_SCRIPT);
  const child = spawn(...nodeWithoutCoverage([script, dir, String(threshold)]), { cwd: path.dirname(dir), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  const lines: string[] = [];
  const reader = readline.createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    reader.once('line', resolve);
    child.once('exit', () => reject(new Error(`payemu exited before it listened:\n${stderr}`)));
  });
  reader.on('line', (line) => lines.push(line));
  const url = /^payemu listening on (\S+)$/.exec(first)?.[1];
  if (!url) throw new Error(`unexpected first line: ${first}`);
  return { url, child, exited, stderr: () => stderr, lines };
}

const running = (started: Started): Running => ({
  url: started.url,
  child: started.proc.child,
  exited: started.proc.exited,
  stderr: () => started.proc.stderr,
});

/** Reads back every acknowledged session and payment in its namespace; the differences (none expected). */
async function verify(url: string, ledger: Ledger): Promise<string[]> {
  const problems: string[] = [];
  const check = async (a: Ack) => {
    const where = `${a.namespace ?? 'default'}: session ${a.session}`;
    const got = await call(url, a.namespace, 'GET', `/v1/sessions/${a.session}`);
    if (got.status !== 200) return void problems.push(`${where}: ${got.status} ${got.text.slice(0, 200)}`);
    const s = got.json.data.attributes;
    if (s.amount !== a.amount || s.reference !== a.reference) problems.push(`${where}: ${JSON.stringify(s)}`);
    if (!a.attempted && s.payment_status !== 'unpaid') problems.push(`${where} was never paid but is ${s.payment_status}`);
    if (!a.payment) return;
    const payment = await call(url, a.namespace, 'GET', `/v1/payments/${encodeURIComponent(a.reference)}`);
    const p = payment.json?.data;
    if (payment.status !== 200 || p.id !== String(a.payment.id) || p.attributes.status !== a.payment.status)
      problems.push(`${where}: payment ${payment.status} ${payment.text.slice(0, 200)} != ${JSON.stringify(a.payment)}`);
  };
  for (let i = 0; i < ledger.acks.length; i += 32) await Promise.all(ledger.acks.slice(i, i + 32).map(check));
  return problems;
}

const namespacesOf = async (url: string) =>
  (await call(url, undefined, 'GET', '/_payemu/namespaces')).json.namespaces as { name: string; created_at: string; clock: { now: string; frozen: boolean } }[];

t.test('SIGKILL while five namespaces and the default write at once: every acknowledged write is in its namespace, ids go on', async (t) => {
  const dir = path.join(t.testdir(), 'data');
  const ledger = new Ledger();
  const namespaces = [undefined, 'n0', 'n1', 'n2', 'n3', 'n4'];
  const rounds = [
    { kill: 120, perNamespace: 3, more: [] },
    { kill: 1, perNamespace: 3, more: [] }, // right after the first answer of a fresh restart
    { kill: 200, perNamespace: 4, more: ['n5'] }, // one more, made under load
  ];
  for (const [n, round] of rounds.entries()) {
    const started = await start(t, dir);
    if (n > 0) t.same(await verify(started.url, ledger), [], `round ${n + 1}: after the restart, all ${ledger.acks.length} acknowledged writes are there`);
    const answers = await writeLoad(running(started), ledger, [...namespaces, ...round.more], {
      ...round,
      kill: (count) => count >= round.kill,
      round: `r${n}`,
      seed: 100 + n,
    });
    t.ok(answers >= round.kill, `round ${n + 1}: killed after ${answers} answers`);
  }
  const last = await start(t, dir);
  t.same(await verify(last.url, ledger), [], `finally: all ${ledger.acks.length} acknowledged writes are there`);
  t.same(
    (await namespacesOf(last.url)).map((ns) => ns.name),
    ['n0', 'n1', 'n2', 'n3', 'n4', 'n5'],
    'every namespace is read back',
  );
  for (const namespace of [...namespaces, 'n5']) {
    const ids = ledger.paymentIds(namespace);
    t.equal(new Set(ids).size, ids.length, `${namespace ?? 'default'}: no payment id given twice (${ids.length} payments)`);
    const session = await call(last.url, namespace, 'POST', '/v1/sessions', { amount: 1 });
    const next = await call(last.url, namespace, 'POST', `/_payemu/sessions/${session.json.data.id}/complete`, { card_number: '4242424242424242' });
    t.ok(next.json.payment.id > Math.max(0, ...ids), `${namespace ?? 'default'}: the next payment id (${next.json.payment.id}) follows every one given out`);
  }
  t.same(fs.readdirSync(path.join(dir, 'namespaces')).sort(), ['n0', 'n1', 'n2', 'n3', 'n4', 'n5']);
  t.equal((await last.proc.stop('SIGTERM')).code, 0);
});

t.test('SIGKILL while namespaces compact their journals (library, tiny threshold): every acknowledged write is there', async (t) => {
  const dir = path.join(t.testdir(), 'data');
  const ledger = new Ledger();
  const namespaces = ['c1', 'c2', 'c3'];
  for (let n = 0; n < 2; n++) {
    const library = await startLibrary(t, dir, 4096);
    if (n > 0) t.same(await verify(library.url, ledger), [], `round ${n + 1}: after the restart, all ${ledger.acks.length} acknowledged writes are there`);
    const compactions = () => library.lines.filter((line) => line.startsWith('compacted ') && line.includes('"namespace":'));
    // Killed once namespaces have compacted twice: with a 4 KiB threshold more are under way.
    const answers = await writeLoad(library, ledger, namespaces, {
      round: `c${n}`,
      kill: (count) => (count >= 60 && compactions().length >= 2) || count >= 3000,
      perNamespace: 3,
      seed: 300 + n,
    });
    const reports = compactions();
    t.ok(reports.length >= 2, `round ${n + 1}: ${reports.length} compactions in namespaces, killed after ${answers} answers`);
    t.same(
      reports.filter((line) => !line.startsWith('compacted {"ok":true')),
      [],
      'every compaction succeeded',
    );
  }
  const last = await startLibrary(t, dir, 4096);
  t.same(await verify(last.url, ledger), [], `finally: all ${ledger.acks.length} acknowledged writes are there`);
  t.ok(
    namespaces.every((name) => fs.readdirSync(path.join(dir, 'namespaces', name)).includes('snapshot.json')),
    "each namespace's directory holds its compacted snapshot",
  );
  // Before the test's directory is removed: a compaction the start began may still be writing in it
  // (a teardown that removed it first failed with ENOTEMPTY, and the process then never ended).
  last.child.kill('SIGTERM');
  t.same(await last.exited, { code: 0, signal: null }, 'the library closes cleanly, compactions under way included');
});

t.test(
  'SIGKILL during a long advance in one namespace while others write: it resumes at its last stored batch, nothing run twice; the others untouched',
  async (t) => {
    const dir = path.join(t.testdir(), 'data');
    const SCHEDULES = 10;
    const DAYS = 2000;
    const first = await start(t, dir);
    await dailySchedules(t, client(first.url, `${KEY}~adv`), SCHEDULES, 's');
    const started = Date.parse(START);
    const target = started + DAYS * DAY;
    const ledger = new Ledger();

    // The advance runs while two other namespaces write; killed once it has gone 200 days.
    const advance = call(first.url, 'adv', 'POST', '/_payemu/clock/advance', { by: `${DAYS}d` }).catch(() => undefined);
    const writers = writeLoad(running(first), ledger, ['w1', 'w2'], { round: 'adv', kill: () => false, perNamespace: 2, seed: 7 });
    let seen = started;
    while (seen < started + 200 * DAY) seen = Date.parse((await call(first.url, 'adv', 'GET', '/_payemu/clock')).json.now);
    first.proc.child.kill('SIGKILL');
    await writers;
    await advance;
    t.ok(seen < target, 'killed in the middle of the advance');
    t.ok(ledger.acks.length > 0, `the others wrote meanwhile (${ledger.acks.length} answers)`);

    const second = await start(t, dir);
    const adv = client(second.url, `${KEY}~adv`);
    const clock = Date.parse((await adv.get('/_payemu/clock')).body.now);
    t.ok(clock >= seen, 'the advanced namespace restarts at or after the last batch seen stored');
    t.ok(clock < target, 'and before the target: the rest has not run');
    const dueDays = Math.floor((clock - Date.parse('2027-01-02T00:00:00Z')) / DAY) + 1;
    for (let i = 0; i < SCHEDULES; i++) {
      const total = (await adv.get(`/v1/payments?filter[customer_email]=s${i}@example.com`)).body.meta.total;
      if (total !== dueDays) t.fail(`schedule s${i}: ${total} charges, ${dueDays} fell due by the restored clock`);
    }
    const clocks = Object.fromEntries((await namespacesOf(second.url)).map((ns) => [ns.name, ns.clock.now]));
    t.same(clocks, { adv: clocks.adv, w1: START, w2: START }, "the writers' clocks did not move");
    t.equal((await call(second.url, undefined, 'GET', '/_payemu/clock')).json.now, START, "nor the default's");
    t.same(await verify(second.url, ledger), [], `every write the others had answered is there (${ledger.acks.length})`);
    t.equal(
      (await call(second.url, 'w1', 'GET', '/v1/payments?filter[customer_email]=s0@example.com')).json.meta.total,
      0,
      'no charge landed in another namespace',
    );

    const rest = await adv.post('/_payemu/clock/advance', { to: new Date(target).toISOString() });
    t.equal(rest.status, 200);
    const all = Math.floor((target - Date.parse('2027-01-02T00:00:00Z')) / DAY) + 1;
    for (let i = 0; i < SCHEDULES; i++) {
      const total = (await adv.get(`/v1/payments?filter[customer_email]=s${i}@example.com`)).body.meta.total;
      if (total !== all) t.fail(`schedule s${i}: ${total} charges after the rest ran, ${all} expected`);
    }
    t.equal((await adv.get('/v1/payments')).body.meta.total, SCHEDULES * all + 1, 'every charge once, plus the payment that saved the card');
    t.equal((await second.proc.stop('SIGTERM')).code, 0);
  },
);

t.test("SIGKILL right after a DELETE's answer: gone after the restart; right after a namespace's first answer: there, with its clock", async (t) => {
  const dir = path.join(t.testdir(), 'data');
  const first = await start(t, dir);
  const old = await call(first.url, 'old', 'POST', '/v1/sessions', { amount: 1, reference: 'old-1' });
  t.equal(old.status, 201);
  t.equal((await call(first.url, 'old', 'POST', '/_payemu/clock/advance', { by: '5d' })).status, 200);
  t.equal((await call(first.url, undefined, 'POST', '/_payemu/clock/advance', { by: '2d' })).status, 200);
  const deleted = await call(first.url, undefined, 'DELETE', '/_payemu/namespaces/old');
  first.proc.child.kill('SIGKILL');
  t.same(deleted.json, { deleted: 'old' });
  await first.proc.exited;

  const second = await start(t, dir);
  t.same(await namespacesOf(second.url), [], 'the deleted namespace is gone');
  const fresh = await call(second.url, 'fresh', 'GET', '/v1/me');
  second.proc.child.kill('SIGKILL');
  t.equal(fresh.status, 200, "a new namespace's first answer");
  await second.proc.exited;

  const third = await start(t, dir);
  const listed = await namespacesOf(third.url);
  t.match(
    listed,
    [{ name: 'fresh', created_at: '2027-01-03T12:00:00.000000Z', clock: { now: '2027-01-03T12:00:00.000000Z', frozen: true } }],
    'it outlived the crash, with the clock it was born with',
  );
  t.equal(listed.length, 1);
  const again = await call(third.url, 'old', 'GET', `/v1/sessions/${old.json.data.id}`);
  t.equal(again.status, 404, "the deleted namespace's records did not come back");
  t.equal(
    (await call(third.url, 'old', 'GET', '/_payemu/clock')).json.now,
    '2027-01-03T12:00:00.000000Z',
    'its name starts afresh, born where the default stands',
  );
  t.equal((await third.proc.stop('SIGTERM')).code, 0);
});
