import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { COLLECTIONS, MODULES } from '../src/catalogue.js';
import { listSegments, segmentPath } from '../src/store/files.js';
import { emulator, pay, savedCard, type TestEmulator } from './helpers/emulator.js';
import { RICH_START, richState } from './helpers/rich-state.js';
import { prng } from './helpers/prng.js';
import { readAnswer } from './helpers/answer.js';

/**
 * Every record of a snapshot is held to the rules of the records payemu writes itself
 * (src/control/snapshot-records.ts, each collection's `schema`): a record that could make payemu
 * loop, hang or answer 500 to a read is a 422 naming the field, and nothing changes.
 */

const START = RICH_START;
const ACME = 'sk_test_payemu_acme';

/** A raw request (no OpenAPI check: a 500 must be seen, not thrown), cut off after `ms`. */
async function call(e: TestEmulator, method: string, path: string, body?: unknown, ms = 20_000) {
  const res = await fetch(`${e.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${ACME}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(ms),
  });
  return readAnswer(res);
}

/**
 * The whole store as exported (`?all=true`), to compare before and after. A frozen clock's
 * `offset_seconds` is its distance from real time, which moves on while the test runs (it
 * turned over a second between two exports on a busy machine): that one field is left out; the
 * clock's `now` and `frozen`, and every record, are compared as exported.
 */
async function exported(e: TestEmulator): Promise<string> {
  return (await call(e, 'GET', '/_payemu/snapshot?all=true')).text.replace(/"offset_seconds":-?\d+,/, '');
}

/**
 * A store with every kind of record payemu keeps, exported whole (`?all=true`): the rich state
 * of the snapshot tests, and what it leaves out, so that each optional field of each kind of
 * record is there to be mutated (metadata, a description, a void, a decline, a refund's reason, a
 * schedule's customer, a card update, an unsent invoice, links with uses and a schedule, faults,
 * webhook chaos).
 */
async function richSnapshot(t: Test) {
  const { e } = await richState(t);
  await e.api.post('/v1/sessions', { amount: 1, reference: 'open-2', description: 'Open', metadata: { a: 1 }, customer_email: 'ada@example.com' });
  await pay(e, { amount: 10, reference: 'meta-1', metadata: { k: 'v' } });
  await pay(e, { amount: 14, reference: 'void-1', capture_method: 'manual' });
  await e.api.post('/v1/payments/void-1/void', {});
  await pay(e, { amount: 15, reference: 'failed-1' }, '4000000000000002');
  await e.api.post('/v1/payments/refunded-1/refunds', { amount: 2, reason: 'requested_by_customer' });
  const pm = await savedCard(e);
  await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 19, frequency: 'monthly', reference: 'sub-2', customer_name: 'Ada' });
  await e.api.post('/v1/recurring-payments/sub-1/payment-method-session', {});
  await e.api.post('/v1/invoices', {
    customer_name: 'Ada',
    customer_email: 'ada@example.com',
    currency: 'USD',
    due_date: '2027-06-30',
    items: [{ description: 'Work', quantity: 2, unit_price: 10 }],
  });
  await e.api.post('/v1/payment-links', { title: 'Tee', amount: 20, max_uses: 5 });
  await e.api.post('/v1/payment-links', { title: 'Club', amount: 9, recurring: { frequency: 'weekly', interval_count: 2 } });
  await e.api.post('/_payemu/outcomes', { reference: 'later-2', sequence: ['approved', 'card_declined'] });
  await e.api.post('/_payemu/faults', { path: '/v1/never/*', status: 503, times: 3, probability: 0.5, seed: 7 });
  await e.api.request('PUT', '/_payemu/webhook-chaos', { duplicate: 0.1, delay: '1s', seed: 3 });
  await e.api.request('DELETE', '/_payemu/webhook-chaos');
  await e.api.request('PUT', '/_payemu/webhook-chaos', { stale_timestamp: 0, seed: 3 });
  await e.idle();
  let snapshot = (await call(e, 'GET', '/_payemu/snapshot?all=true')).json;
  // A module whose records the lines above do not make (a resource added since) gets them from
  // its events' triggers, which make each event happen through its own routes.
  const unnamed = MODULES.filter((m) => m.collections.some((c) => !(snapshot.data[c.name]?.length > 0)));
  const events = unnamed.flatMap((m) => Object.keys(m.events));
  for (const event of events) await e.api.post('/_payemu/trigger', { event });
  if (events.length > 0) {
    await e.idle();
    snapshot = (await call(e, 'GET', '/_payemu/snapshot?all=true')).json;
  }
  return snapshot;
}

/** Every list read, and an advance of some days: none may answer 5xx or hang. */
const READS = [
  '/v1/me',
  '/v1/payments?per_page=100',
  '/v1/recurring-payments',
  '/v1/recurring-payments/sub-1',
  '/v1/invoices',
  '/v1/payment-links',
  '/_payemu/events?limit=1000',
  '/_payemu/outcomes',
  '/_payemu/faults',
  '/_payemu/webhook-chaos',
  '/_payemu/clock',
  '/_payemu/health',
  '/_payemu/snapshot?all=true',
];

async function readsAnswer(t: Test, e: TestEmulator, what: string): Promise<boolean> {
  for (const path of READS) {
    const res = await call(e, 'GET', path);
    if (res.status >= 500) {
      t.fail(`${what}: GET ${path} answered ${res.status}: ${res.text.slice(0, 200)}`);
      return false;
    }
  }
  const advanced = await call(e, 'POST', '/_payemu/clock/advance', { by: '40d' });
  if (advanced.status >= 500) {
    t.fail(`${what}: the advance answered ${advanced.status}: ${advanced.text.slice(0, 200)}`);
    return false;
  }
  return true;
}

const clone = <T>(value: T): T => structuredClone(value);

/** `snapshot` with `change` made to the `index`th record of `collection`. */
function mutated(snapshot: any, collection: string, index: number, change: (record: any) => void) {
  const copy = clone(snapshot);
  change(copy.data[collection][index]);
  return copy;
}

/** Asserts a 422 whose `meta.errors` has a key naming `field` (or starting with it). */
function refused(t: Test, res: { status: number; text: string; json: any }, field: string, what: string) {
  t.equal(res.status, 422, `${what}: a 422 (${res.text.slice(0, 200)})`);
  const keys = Object.keys(res.json?.errors?.[0]?.meta?.errors ?? {});
  t.ok(
    keys.some((k) => k === field || k.startsWith(`${field}.`)),
    `${what}: meta.errors names ${field} (${keys.join(', ')})`,
  );
}

t.test('every collection of the catalogue has a stored-record schema, and every record of a real snapshot passes it', async (t) => {
  for (const def of COLLECTIONS) t.ok(def.schema, `${def.name} has a schema`);
  const snapshot = await richSnapshot(t);
  for (const def of COLLECTIONS)
    if (!['webhook_chaos', 'webhook_destinations', 'faults'].includes(def.name)) t.ok(snapshot.data[def.name]?.length > 0, `the snapshot holds ${def.name}`);
  const e = await emulator(t, { freezeClock: true });
  const res = await call(e, 'POST', '/_payemu/snapshot?all=true', snapshot);
  t.equal(res.status, 200, res.text.slice(0, 300));
  t.ok(await readsAnswer(t, e, 'the real snapshot'));
});

t.test('issue 34: a bad imported record is a 422 naming the field, and nothing changes', async (t) => {
  const snapshot = await richSnapshot(t);
  const e = await emulator(t, { freezeClock: true });
  t.equal((await call(e, 'POST', '/_payemu/snapshot?all=true', snapshot)).status, 200);
  const before = await exported(e);
  const at = (collection: string, find: (r: any) => boolean) => {
    const i = snapshot.data[collection].findIndex(find);
    if (i < 0) throw new Error(`no such record in ${collection}`);
    return i;
  };
  const sub = at('recurring_payments', (r) => r.reference === 'sub-1');
  const paid = at('payments', (r) => r.reference === 'paid-1');
  const event = 0;
  const session = at('sessions', (r) => r.reference === 'open-1');
  const counter = at('meta', (r) => r.id === 'counter:payments');
  const cases: [string, string, number, (r: any) => void][] = [
    // 5: a schedule that would hang the billing date computation
    ['recurring_payments', 'interval_count', sub, (r) => (r.interval_count = 0)],
    ['recurring_payments', 'interval_count', sub, (r) => (r.interval_count = -1)],
    ['recurring_payments', 'frequency', sub, (r) => (r.frequency = 'hourly')],
    ['recurring_payments', 'anchor', sub, (r) => delete r.anchor],
    ['recurring_payments', 'next_billing_date', sub, (r) => (r.next_billing_date = '2027-02-28')],
    // 6: id counters at 2^53 or 1e300
    ['meta', 'value', counter, (r) => (r.value = 2 ** 53)],
    ['meta', 'value', counter, (r) => (r.value = 1e300)],
    ['meta', 'value', counter, (r) => (r.value = 2 ** 31)],
    // 9: wrong types that broke reads
    ['payments', 'created_at', paid, (r) => (r.created_at = '2027-01-31')],
    ['payments', 'created_at', paid, (r) => (r.created_at = 1e300)],
    ['events', 'data', event, (r) => (r.data = null)],
    ['events', 'attempts', event, (r) => (r.attempts = 'many')],
    ['sessions', 'expires_at', session, (r) => (r.expires_at = 'tomorrow')],
  ];
  for (const [collection, field, index, change] of cases) {
    const what = `${collection}.${index}.${field} ${change.toString().replace(/^\(r\) => /, '')}`;
    const res = await call(e, 'POST', '/_payemu/snapshot?all=true', mutated(snapshot, collection, index, change));
    refused(t, res, `data.${collection}.${index}.${field}`, what);
  }
  const noCounter = clone(snapshot);
  noCounter.data.meta = noCounter.data.meta.filter((r: any) => r.id !== 'counter:payments');
  refused(t, await call(e, 'POST', '/_payemu/snapshot?all=true', noCounter), 'data.meta', 'payments without their id counter');
  t.equal(await exported(e), before, 'nothing changed');
  t.ok(await readsAnswer(t, e, 'after the refusals'));
  const made = await pay(e, { amount: 1, reference: 'after' });
  const ids = (await call(e, 'GET', '/v1/payments?per_page=100')).json.data.map((p: any) => p.id);
  t.ok(ids.includes(String(made.completed.body.payment.id)), 'the new payment is listed');
  t.equal(new Set(ids).size, ids.length, 'no two payments share an id');
});

t.test("issue 34: an id counter below an id the snapshot holds is a 422: no new payment can take an acknowledged one's id", async (t) => {
  const snapshot = await richSnapshot(t);
  const counter = snapshot.data.meta.findIndex((r: any) => r.id === 'counter:payments');
  const low = mutated(snapshot, 'meta', counter, (r) => (r.value = 1));
  const e = await emulator(t, { freezeClock: true });
  const before = await exported(e);
  refused(t, await call(e, 'POST', '/_payemu/snapshot?all=true', low), `data.meta.${counter}.value`, 'a payment counter of 1 below payments 1 to 9');
  t.equal(await exported(e), before, 'nothing changed');
  // Had it been taken, the next payment would have been given id 2 and taken that payment's place.
  t.equal((await call(e, 'POST', '/_payemu/snapshot?all=true', snapshot)).status, 200, 'the snapshot as exported imports');
  await pay(e, { amount: 1, reference: 'after' });
  const listed = (await call(e, 'GET', '/v1/payments?per_page=100')).json.data;
  t.equal(listed.length, snapshot.data.payments.length + 1, 'every imported payment is still there, and the new one');
  t.equal(new Set(listed.map((p: any) => p.id)).size, listed.length, 'no two payments share an id');
});

t.test('issue 34: a stored schedule whose cadence cannot move forward (an older payemu imported it) cannot hang a restart or an advance', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-cadence-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const first = await emulator(t, { inMemory: false, dataDir: dir, clockStart: START, freezeClock: true });
  const saved = await pay(first, { amount: 1, reference: 'save-1', save_payment_method: true });
  const pm = saved.completed.body.payment.payment_method;
  t.equal((await first.api.post('/v1/recurring-payments', { payment_method: pm, amount: 19, frequency: 'monthly', reference: 'sub-1' })).status, 201);
  await first.close();
  // What an import of an older payemu could have stored: an interval of 0.
  for (const n of listSegments(dir)) {
    const file = segmentPath(dir, n);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replaceAll('"interval_count":1', '"interval_count":0'));
  }
  const second = await emulator(t, { inMemory: false, dataDir: dir, freezeClock: true });
  t.equal((await call(second, 'GET', '/v1/recurring-payments/sub-1')).json.data.attributes.interval_count, 0, 'the bad schedule is there');
  const advanced = await call(second, 'POST', '/_payemu/clock/advance', { by: '40d' }, 30_000);
  t.ok(advanced.status < 500, `the advance finishes (${advanced.status})`);
  t.equal((await call(second, 'GET', '/_payemu/health', undefined, 5_000)).status, 200, 'payemu still answers');
  t.ok(await readsAnswer(t, second, 'after the advance'));
});

/** The ways a field can be wrong. */
const MUTATIONS: [string, (value: unknown) => unknown][] = [
  ['missing', () => undefined],
  ['null', () => null],
  ['a string', () => 'x'],
  ['an empty string', () => ''],
  ['true', () => true],
  ['an object', () => ({})],
  ['an array', () => []],
  ['-1', () => -1],
  ['0', () => 0],
  ['2^31', () => 2 ** 31],
  ['2^53', () => 2 ** 53],
  ['1e300', () => 1e300],
  ['-1e300', () => -1e300],
  ['a far date', () => 8.64e15],
  ['a fraction', (v) => (typeof v === 'number' ? v + 0.5 : 0.5)],
];

/** `a.b.0.c` paths of a record's fields, down to nested objects and the first item of arrays. */
function paths(value: unknown, prefix: string[] = [], depth = 0): string[][] {
  if (value === null || typeof value !== 'object' || depth > 2) return [];
  const out: string[][] = [];
  const entries = Array.isArray(value) ? (value.length > 0 ? [['0', value[0]] as const] : []) : Object.entries(value);
  for (const [key, v] of entries) {
    out.push([...prefix, key]);
    // metadata, an event's data and a fault's body hold anything
    if (!['metadata', 'data', 'body'].includes(key)) out.push(...paths(v, [...prefix, key], depth + 1));
  }
  return out;
}

function setPath(record: any, path: string[], value: unknown) {
  let at = record;
  for (const key of path.slice(0, -1)) at = at[key];
  const last = path.at(-1)!;
  if (value === undefined) {
    if (Array.isArray(at)) at.splice(Number(last), 1);
    else delete at[last];
  } else at[last] = value;
}

const getPath = (record: any, path: string[]) => path.reduce((at, key) => at?.[key], record);

t.test('property: any field of any record mutated is a 422 naming it, or a 200 after which reads and an advance answer', async (t) => {
  const seed = Number(process.env.PAYEMU_RECORDS_SEED ?? 34);
  const perField = Number(process.env.PAYEMU_RECORDS_MUTATIONS ?? 3);
  const random = prng(seed);
  t.comment(`seed ${seed}, ${perField} mutations per field (PAYEMU_RECORDS_SEED, PAYEMU_RECORDS_MUTATIONS=${MUTATIONS.length} for all)`);
  const snapshot = await richSnapshot(t);
  const e = await emulator(t, { freezeClock: true });
  let refusedCount = 0;
  let accepted = 0;
  const kinds = Object.keys(snapshot.data).filter((name) => snapshot.data[name].length > 0);
  for (const collection of kinds) {
    const records: any[] = snapshot.data[collection];
    // Each field any record of the kind has, mutated on one record that has it.
    const seen = new Map<string, { path: string[]; index: number }>();
    records.forEach((record, index) => {
      for (const path of paths(record)) if (!seen.has(path.join('.'))) seen.set(path.join('.'), { path, index });
    });
    for (const { path, index } of seen.values()) {
      const picks = [...MUTATIONS].sort(() => random() - 0.5).slice(0, perField);
      for (const [name, make] of picks) {
        const field = `data.${collection}.${index}.${path.join('.')}`;
        const document = mutated(snapshot, collection, index, (r) => setPath(r, path, make(getPath(r, path))));
        const res = await call(e, 'POST', '/_payemu/snapshot?all=true', document);
        const what = `${field} as ${name}`;
        if (res.status === 422) {
          refusedCount++;
          const keys = Object.keys(res.json?.errors?.[0]?.meta?.errors ?? {});
          if (!keys.some((k) => k.startsWith(`data.${collection}.${index}`))) t.fail(`${what}: the 422 does not name the record (${keys.join(', ')})`);
          continue;
        }
        if (res.status !== 200) {
          t.fail(`${what}: answered ${res.status}: ${res.text.slice(0, 200)}`);
          continue;
        }
        accepted++;
        if (!(await readsAnswer(t, e, what))) t.comment(JSON.stringify(getPath(document.data[collection][index], path.slice(0, -1)) ?? null).slice(0, 300));
      }
    }
  }
  t.comment(`${kinds.length} record kinds, ${refusedCount} refused, ${accepted} accepted and read`);
  t.ok(refusedCount > 0 && accepted > 0);
});
