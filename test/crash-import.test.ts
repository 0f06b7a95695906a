import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import t from 'tap';
import { startPayemu, type Started } from './helpers/cli.js';
import { prng } from './helpers/prng.js';
import { readAnswer } from './helpers/answer.js';

/**
 * docs/reliability.md, "What a crash cannot break": a snapshot import is one transaction, so one
 * journal line (an `all` import over HTTP: one new snapshot file, renamed into place), and a
 * `kill -9` at any moment of it leaves either the store as it was or the whole import, never a mix. A real `payemu start --data DIR` is given acknowledged writes in
 * three scopes, then a snapshot of several MB is imported into acme test mode (or, in one
 * round, an `all` snapshot whose clock stands months ahead over daily schedules), and the
 * process gets SIGKILL in the middle: after a seeded number of body bytes, the moment the
 * journal grows, while the new snapshot is written or just after it is renamed into place,
 * after the whole body went out, on the answer, or while the import's due work runs in batches. Each restart (same directory, no `doctor`) must start, hold every
 * acknowledged write of the other scopes as answered, hold in the imported scope either the
 * records before the import or the import's (all of them if it answered 200), answer every
 * list read and finish an advance. All rounds share one directory: each one starts from a
 * store the previous crash left.
 *
 * Runs the built CLI: `npm test` builds first; alone, run `npm run build` before this file.
 * PAYEMU_CRASH_ROUNDS=N runs N rounds (default 4); PAYEMU_CRASH_SEED=N another draw.
 */

t.setTimeout(300_000);

const KEYS = { acme: 'sk_test_payemu_acme', acmeLive: 'sk_live_payemu_acme', globex: 'sk_test_payemu_globex' } as const;
type KeyName = keyof typeof KEYS;
const DAY = 86_400_000;
const SCHEDULES = 10;
const AHEAD_DAYS = 400;
/** Session and payment pairs added to a scoped snapshot: about 6 MB of body. */
const PAIRS = 2_500;

type Kind = 'journal' | 'body' | 'batches' | 'snapshot' | 'sent' | 'answered';
// The default four rounds: the import's line being written, the body cut short, an `all`
// import killed while its due work runs, and one killed while it writes its records as the
// snapshot (an `all` import over HTTP replaces the store that way: src/control/snapshot-swap.ts).
// More rounds take the other moments too.
const KINDS: readonly Kind[] = ['journal', 'body', 'batches', 'snapshot', 'sent', 'answered'];

interface Answer {
  status: number;
  json: any;
  text: string;
}

async function call(url: string, key: KeyName, method: string, route: string, body?: unknown): Promise<Answer> {
  const res = await fetch(url + route, {
    method,
    headers: { Authorization: `Bearer ${KEYS[key]}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  return readAnswer(res);
}

async function ok(url: string, key: KeyName, method: string, route: string, body?: unknown, status = 200): Promise<any> {
  const res = await call(url, key, method, route, body);
  if (res.status !== status) throw new Error(`${method} ${route} (${key}) answered ${res.status}, not ${status}: ${res.text.slice(0, 300)}`);
  return res.json;
}

interface SessionAck {
  id: string;
  key: KeyName;
  reference: string;
  amount: number;
  metadata: Record<string, unknown>;
  payment?: { id: string; status: string; amount: string };
}

/** Every session and payment payemu answered for, as answered, by session id. */
type Ledger = Map<string, SessionAck>;

async function write(url: string, ledger: Ledger, key: KeyName, reference: string, paid: boolean): Promise<void> {
  const amount = 1 + reference.length / 100;
  const metadata = { reference, note: 'ünïcødé 𝄞' };
  const created = await ok(url, key, 'POST', '/v1/sessions', { amount, reference, metadata }, 201);
  const ack: SessionAck = { id: created.data.id, key, reference, amount, metadata };
  ledger.set(ack.id, ack);
  if (!paid) return;
  // Live mode pays with a live-mode card.
  const card = key === 'acmeLive' ? '4111111111111111' : '4242424242424242';
  const completed = await ok(url, key, 'POST', `/_payemu/sessions/${ack.id}/complete`, { card_number: card });
  ack.payment = { id: String(completed.payment.id), status: completed.payment.status, amount: completed.payment.amount };
}

/** Differences between the ledger and what payemu answers now (none expected). */
async function verifyLedger(url: string, ledger: Ledger): Promise<string[]> {
  const problems: string[] = [];
  for (const s of ledger.values()) {
    const got = await call(url, s.key, 'GET', `/v1/sessions/${s.id}`);
    if (got.status !== 200) {
      problems.push(`session ${s.id} (${s.key}, ${s.reference}): ${got.status}`);
      continue;
    }
    const a = got.json.data.attributes;
    const want = {
      amount: s.amount,
      reference: s.reference,
      metadata: s.metadata,
      payment_status: s.payment ? (s.payment.status === 'PAID' ? 'paid' : 'failed') : 'unpaid',
    };
    const have = { amount: a.amount, reference: a.reference, metadata: a.metadata, payment_status: a.payment_status };
    if (JSON.stringify(want) !== JSON.stringify(have)) problems.push(`session ${s.id}: ${JSON.stringify(have)} != ${JSON.stringify(want)}`);
    if (!s.payment) continue;
    const payment = await call(url, s.key, 'GET', `/v1/payments/${encodeURIComponent(s.reference)}`);
    if (payment.status !== 200) {
      problems.push(`payment ${s.reference} (${s.key}): ${payment.status}`);
      continue;
    }
    const p = payment.json.data;
    const pw = JSON.stringify({ id: s.payment.id, status: s.payment.status, amount: s.payment.amount });
    const ph = JSON.stringify({ id: p.id, status: p.attributes.status, amount: p.attributes.amount });
    if (pw !== ph) problems.push(`payment ${s.reference}: ${ph} != ${pw}`);
  }
  return problems;
}

const LIST_READS = [
  '/v1/me',
  '/v1/payments?per_page=100',
  '/v1/recurring-payments',
  '/v1/invoices',
  '/v1/payment-links',
  '/_payemu/events?limit=100',
  '/_payemu/outcomes',
  '/_payemu/faults',
  '/_payemu/clock',
  '/_payemu/health',
];

/** Every list read with every key answers 200; then an advance of a day finishes. */
async function readsAndAdvance(url: string): Promise<string[]> {
  const problems: string[] = [];
  for (const key of Object.keys(KEYS) as KeyName[])
    for (const route of LIST_READS) {
      const res = await call(url, key, 'GET', route);
      if (res.status !== 200) problems.push(`GET ${route} (${key}): ${res.status} ${res.text.slice(0, 200)}`);
    }
  const advance = await call(url, 'acme', 'POST', '/_payemu/clock/advance', { by: '1d' });
  if (advance.status !== 200) problems.push(`advance: ${advance.status} ${advance.text.slice(0, 200)}`);
  return problems;
}

const ids = (records: { id: string }[] | undefined) => new Set((records ?? []).map((r) => r.id));
const same = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
/** A file's size; 0 once it is gone (a compaction removes the segments its snapshot covers). */
const sizeOf = (file: string) => fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
const journalBytes = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((name) => /^journal-\d+\.ndjson$/.test(name))
    .reduce((sum, name) => sum + sizeOf(path.join(dir, name)), 0);

/**
 * `snapshot` with `pairs` more paid sessions and their payments, copied from one of its own
 * with fresh ids (payment ids from `firstId`), references and a padded metadata, and the
 * payment counter moved to match: records as payemu writes them, so the import checks them.
 */
function enlarge(snapshot: any, pairs: number, firstId: number, tag: string, random: () => number): any {
  const doc = structuredClone(snapshot);
  // An earlier round's copies are left out (the import replaces them): the document stays the same size.
  const earlier = (r: any) => typeof r.reference === 'string' && r.reference.includes('-imported-');
  doc.data.sessions = doc.data.sessions.filter((r: any) => !earlier(r));
  doc.data.payments = doc.data.payments.filter((r: any) => !earlier(r));
  const session = doc.data.sessions.find((s: any) => s.status === 'complete');
  const payment = doc.data.payments.find((p: any) => p.session_id === session?.id);
  if (!session || !payment) throw new Error('the snapshot has no paid session to copy');
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const padding = 'payemu '.repeat(120);
  for (let i = 0; i < pairs; i++) {
    let sid = 'cs_';
    for (let c = 0; c < 24; c++) sid += alphabet[Math.floor(random() * alphabet.length)];
    const reference = `${tag}-${i}`;
    const metadata = { i, tag, padding };
    const amount = 100 + i;
    doc.data.sessions.push({ ...session, id: sid, reference, amount, metadata });
    doc.data.payments.push({ ...payment, id: String(firstId + i), reference, amount, metadata, session_id: sid });
  }
  const counter = doc.data.meta.find((r: any) => r.id === 'counter:payments');
  if (counter) counter.value = Math.max(counter.value, firstId + pairs - 1);
  else doc.data.meta.push({ id: 'counter:payments', value: firstId + pairs - 1 });
  return doc;
}

interface Kill {
  /** The import's answer, if one arrived before the kill. */
  answered?: number;
  /** Its body, as far as it arrived. */
  text: string;
  at: string;
}

/**
 * Sends `body` as `POST route` with a raw request and kills payemu with SIGKILL at the moment
 * `kind` names (seeded by `random`); resolves once the process has ended by SIGKILL.
 */
async function importAndKill(started: Started, dir: string, route: string, body: string, kind: Kind, random: () => number): Promise<Kill> {
  const child = started.proc.child;
  let killedAt: string | undefined;
  let answered: number | undefined;
  let text = '';
  const kill = (at: string) => {
    if (killedAt !== undefined) return;
    killedAt = at;
    child.kill('SIGKILL');
  };
  const buffer = Buffer.from(body);
  const before = journalBytes(dir);
  const cutAt = Math.floor(random() * buffer.length);
  // 'journal': once the journal has grown a seeded number of bytes past its size before the
  // import (its line, one write of MBs, may be caught half written); 'batches': once the nth
  // line after the import's own is written, while its due work runs.
  const grown = 1 + Math.floor(random() * buffer.length);
  const nth = 1 + Math.floor(random() * (AHEAD_DAYS / 3));
  let watcher: fs.FSWatcher | undefined;
  if (kind === 'snapshot') {
    // Once the new snapshot's temporary file has a seeded number of bytes, or once it has been
    // renamed into place (the snapshot is another file), whichever comes first: aimed up to a
    // quarter past the body's size, so that some rounds reach the rename.
    const aimed = Math.floor(grown * 1.25);
    const snapshot = path.join(dir, 'snapshot.json');
    const temp = path.join(dir, '.snapshot.json.tmp');
    const inode = () => fs.statSync(snapshot, { throwIfNoEntry: false })?.ino;
    const was = inode();
    const poll = () => {
      if (killedAt !== undefined) return;
      const bytes = sizeOf(temp);
      if (bytes >= aimed) kill(`with ${bytes} bytes of the new snapshot written (aimed at ${aimed})`);
      else if (inode() !== was) kill('once the new snapshot was renamed into place');
      else setImmediate(poll);
    };
    setImmediate(poll);
  }
  if (kind === 'journal') {
    const poll = () => {
      if (killedAt !== undefined) return;
      const bytes = journalBytes(dir) - before;
      if (bytes >= grown) kill(`with the journal ${bytes} bytes past its ${before} before the import (aimed at ${grown})`);
      else setImmediate(poll);
    };
    setImmediate(poll);
  }
  if (kind === 'batches') {
    const linesSince = lineCounter(dir, before);
    watcher = fs.watch(dir, (_event, name) => {
      if (killedAt !== undefined || !name || !/^journal-\d+\.ndjson$/.test(String(name))) return;
      // Lines after the import's own line (the first one ending past `before`).
      const lines = linesSince();
      if (lines - 1 >= nth) kill(`${lines - 1} journal lines of due work after the import's line`);
    });
  }
  const url = new URL(route, started.url);
  const response = new Promise<void>((resolve) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: { Authorization: `Bearer ${KEYS.acme}`, 'Content-Type': 'application/json', 'Content-Length': buffer.length },
      },
      (res) => {
        answered = res.statusCode;
        // The fallback of every kind, and the moment of 'answered': on the answer.
        kill(`on the answer (${res.statusCode})`);
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', resolve).on('error', () => resolve());
      },
    );
    req.on('error', () => {
      kill('when the request failed');
      resolve();
    });
    let sent = 0;
    const pump = () => {
      while (sent < buffer.length && killedAt === undefined) {
        let end = Math.min(buffer.length, sent + 65_536);
        if (kind === 'body' && end >= cutAt) {
          end = Math.max(cutAt, sent + 1);
          const at = end;
          req.write(buffer.subarray(sent, end), () => kill(`after ${at} of ${buffer.length} body bytes were sent`));
          sent = end;
          return;
        }
        const chunk = buffer.subarray(sent, end);
        sent = end;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (sent >= buffer.length && killedAt === undefined) req.end(() => kind === 'sent' && kill(`right after the last of ${buffer.length} body bytes`));
    };
    pump();
  });
  const exit = await started.proc.exited;
  watcher?.close();
  await response;
  if (exit.signal !== 'SIGKILL') throw new Error(`payemu ended with ${exit.code ?? exit.signal}, not by SIGKILL:\n${started.proc.stderr}`);
  return { answered, text, at: killedAt ?? 'not killed by the test' };
}

/**
 * Counts the lines appended to the journal segments after `offset` bytes of them, reading only
 * what was added since its last call (the journal holds earlier rounds' imports, MBs each).
 */
function lineCounter(dir: string, offset: number): () => number {
  const read = new Map<string, number>();
  let skip = offset;
  let lines = 0;
  return () => {
    const names = fs
      .readdirSync(dir)
      .filter((n) => /^journal-\d+\.ndjson$/.test(n))
      .sort();
    for (const name of names) {
      const file = path.join(dir, name);
      let at = read.get(name);
      const size = sizeOf(file);
      if (at === undefined) {
        at = Math.min(skip, size);
        skip -= at;
      }
      if (size > at) {
        const chunk = Buffer.alloc(size - at);
        let fd: number;
        try {
          fd = fs.openSync(file, 'r');
        } catch {
          continue; // removed by a compaction meanwhile
        }
        try {
          fs.readSync(fd, chunk, 0, chunk.length, at);
        } finally {
          fs.closeSync(fd);
        }
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        at = size;
      }
      read.set(name, at);
    }
    return lines;
  };
}

t.test('kill -9 in the middle of a snapshot import, restart: the import is all or nothing, every other write is there', async (t) => {
  const seed = Number(process.env.PAYEMU_CRASH_SEED ?? 34);
  const random = prng(seed);
  const dir = path.join(t.testdir(), 'data');
  const args = ['--data', dir, '--clock-start', '2027-01-01T12:00:00Z', '--freeze-clock', '--no-ui'];
  const ledger: Ledger = new Map();
  const rounds = Number(process.env.PAYEMU_CRASH_ROUNDS ?? 4);
  let started = await startPayemu(t, args);
  for (let n = 0; n < rounds; n++) {
    const kind = KINDS[n % KINDS.length]!;
    const url = started.url;
    const all = kind === 'batches' || kind === 'snapshot';
    // Acknowledged writes in three scopes.
    for (let i = 0; i < 6; i++) await write(url, ledger, 'acme', `r${n}-acme-${i}`, i % 2 === 0);
    for (let i = 0; i < 2; i++) await write(url, ledger, 'acmeLive', `r${n}-live-${i}`, i === 0);
    for (let i = 0; i < 3; i++) await write(url, ledger, 'globex', `r${n}-globex-${i}`, i === 0);
    let schedules: string[] = [];
    if (all) {
      // Daily schedules from tomorrow: the snapshot's clock, months ahead, leaves their charges due.
      const saved = await ok(url, 'acme', 'POST', '/v1/sessions', { amount: 1, save_payment_method: true, reference: `r${n}-card` }, 201);
      const card = (await ok(url, 'acme', 'POST', `/_payemu/sessions/${saved.data.id}/complete`, { card_number: '4242424242424242' })).payment.payment_method;
      const now = Date.parse((await ok(url, 'acme', 'GET', '/_payemu/clock')).now);
      const tomorrow = new Date(now + DAY).toISOString().slice(0, 10);
      schedules = Array.from({ length: SCHEDULES }, (_, i) => `r${n}-daily-${i}@example.com`);
      for (const email of schedules)
        await ok(
          url,
          'acme',
          'POST',
          '/v1/recurring-payments',
          { payment_method: card, amount: 1, frequency: 'daily', start_date: tomorrow, customer_email: email },
          201,
        );
    }
    const exported = await ok(url, 'acme', 'GET', all ? '/_payemu/snapshot?all=true' : '/_payemu/snapshot');
    // Fresh payment ids above every id given so far (the counter is shared by every scope), with
    // room for the payments made below before the import: none is renumbered.
    const counter = exported.data.meta.find((r: any) => r.id === 'counter:payments')?.value ?? 0;
    const document = enlarge(exported, all ? PAIRS / 5 : PAIRS, counter + 100, `r${n}-imported`, random);
    if (all) document.clock.now = new Date(Date.parse(exported.clock.now) + AHEAD_DAYS * DAY).toISOString();
    // Writes after the export: acknowledged, and gone if the import is applied (in its scope).
    for (let i = 0; i < 3; i++) await write(url, ledger, 'acme', `r${n}-after-${i}`, i === 1);
    await write(url, ledger, 'globex', `r${n}-globex-after`, true);
    const pre = await ok(url, 'acme', 'GET', all ? '/_payemu/snapshot?all=true' : '/_payemu/snapshot');
    const body = JSON.stringify(document);

    const killed = await importAndKill(started, dir, all ? '/_payemu/snapshot?all=true' : '/_payemu/snapshot', body, kind, random);
    started = await startPayemu(t, args);
    t.pass(
      `round ${n + 1} (${kind}, ${(body.length / 1e6).toFixed(1)} MB${all ? `, all, clock ${AHEAD_DAYS} days ahead` : ''}): killed ${killed.at}; restarted`,
    );

    const after = await ok(started.url, 'acme', 'GET', all ? '/_payemu/snapshot?all=true' : '/_payemu/snapshot');
    const sessions = ids(after.data.sessions);
    const payments = ids(after.data.payments);
    const preSessions = ids(pre.data.sessions);
    const importSessions = ids(document.data.sessions);
    // Due work after an `all` import adds the schedules' charges: payments of the import, and
    // charges of its schedules, and nothing else.
    const importPayments = ids(document.data.payments);
    const chargesOnly = [...payments].every(
      (id) => importPayments.has(id) || after.data.payments.find((p: any) => p.id === id)?.recurring_reference !== undefined,
    );
    const clockNow = Date.parse(after.clock.now);
    const applied =
      same(sessions, importSessions) &&
      [...importPayments].every((id) => payments.has(id)) &&
      (all ? chargesOnly && clockNow >= Date.parse(document.clock.now) : same(payments, importPayments));
    const untouched = same(sessions, preSessions) && same(payments, ids(pre.data.payments)) && (!all || clockNow === Date.parse(pre.clock.now));
    if (!applied && !untouched) {
      const mixed = [...importSessions].filter((id) => sessions.has(id)).length;
      t.fail(
        `round ${n + 1}: the imported scope is a mix: ${sessions.size} sessions (${mixed} of the import's ${importSessions.size}, ` +
          `${[...preSessions].filter((id) => sessions.has(id)).length} of the ${preSessions.size} before), ${payments.size} payments, clock ${after.clock.now}`,
      );
    } else t.pass(`round ${n + 1}: the import is ${applied ? 'all there' : 'not there at all'}`);
    if (killed.answered !== undefined) t.equal(killed.answered, 200, `round ${n + 1}: the import answered 200 before the kill ${killed.text.slice(0, 300)}`);
    if (killed.answered === 200) t.ok(applied, `round ${n + 1}: the import answered 200, and its records are all there`);

    // What the import replaced is no longer acknowledged state: only the import's copies are.
    if (applied) for (const s of [...ledger.values()]) if ((all || s.key === 'acme') && !importSessions.has(s.id)) ledger.delete(s.id);
    t.same(await verifyLedger(started.url, ledger), [], `round ${n + 1}: all ${ledger.size} acknowledged sessions are there as answered`);
    t.same(await readsAndAdvance(started.url), [], `round ${n + 1}: every list read answers 200 and an advance finishes`);

    if (all && applied) {
      // Each schedule charged exactly once for each day up to the clock, the crash or not.
      const clock = Date.parse((await ok(started.url, 'acme', 'GET', '/_payemu/clock')).now);
      const first = Date.parse(`${new Date(Date.parse(exported.clock.now) + DAY).toISOString().slice(0, 10)}T00:00:00Z`);
      const due = Math.floor((clock - first) / DAY) + 1;
      const wrong: string[] = [];
      for (const email of schedules) {
        const total = (await ok(started.url, 'acme', 'GET', `/v1/payments?filter[customer_email]=${encodeURIComponent(email)}`)).meta.total;
        if (total !== due) wrong.push(`${email}: ${total}`);
      }
      t.same(wrong, [], `round ${n + 1}: every schedule was charged once a day for the ${due} days due`);
    }
  }
  t.same(await started.proc.stop('SIGTERM'), { code: 0, signal: null }, 'SIGTERM stops it with exit code 0');
  t.notOk(fs.existsSync(path.join(dir, 'payemu.lock')), 'the lock is released');
});
