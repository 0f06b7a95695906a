import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { startEmulator } from '../../src/index.js';
import { assertError, client, emulator, pay } from '../helpers/emulator.js';
import { deadUrl, receiver } from '../helpers/receiver.js';

// A clean restart: each named namespace carries on from its own directory (DATA/namespaces/NAME)
// as the default does from DATA: its clock, its due work, its deliveries, its ids.

const KEY = 'sk_test_payemu_acme';
const START = '2027-01-01T10:00:00.000000Z';

t.test('a clean restart: every namespace keeps its records, ids, clock and pending deliveries, each its own', async (t) => {
  const dir = t.testdir();
  const options = { inMemory: false, dataDir: dir, clockStart: START, freezeClock: true, webhookUrl: await deadUrl(), webhookBackoff: '1h,1h,1h' };
  const e1 = await emulator(t, options);
  const a1 = client(e1.url, `${KEY}~a`);
  const b1 = client(e1.url, `${KEY}~b`);
  t.equal((await a1.post('/_payemu/clock/advance', { by: '30d' })).status, 200);
  await pay(e1, { amount: 1, reference: 'd-1' });
  await pay(e1, { amount: 2, reference: 'a-1' }, '4242424242424242', a1);
  await pay(e1, { amount: 3, reference: 'a-2' }, '4242424242424242', a1);
  await pay(e1, { amount: 4, reference: 'b-1' }, '4242424242424242', b1);
  await e1.idle(); // the first attempts made (and failed: nothing listens)
  const pendingIn = async (c: ReturnType<typeof client>) =>
    (await c.get('/_payemu/events')).body.events.filter((ev: { delivery_status: string }) => ev.delivery_status === 'retrying').length;
  t.ok((await pendingIn(a1)) > 0 && (await pendingIn(b1)) > 0, 'deliveries wait for a retry in a and b');
  const listed = (await e1.api.get('/_payemu/namespaces')).body.namespaces;
  await e1.close();
  t.same(fs.readdirSync(path.join(dir, 'namespaces')).sort(), ['a', 'b'], 'a directory per namespace');

  const r = await receiver(t);
  const e2 = await emulator(t, { ...options, webhookUrl: r.url });
  const a2 = client(e2.url, `${KEY}~a`);
  const b2 = client(e2.url, `${KEY}~b`);
  // A frozen clock's offset_seconds is its distance from real time, which moves on while stopped.
  const steady = (namespaces: { clock: { offset_seconds?: number } }[]) => namespaces.map((n) => ({ ...n, clock: { ...n.clock, offset_seconds: undefined } }));
  t.same(
    steady((await e2.api.get('/_payemu/namespaces')).body.namespaces),
    steady(listed),
    'the same namespaces, created_at, clocks and counts, read back at start',
  );
  t.equal((await a2.get('/_payemu/clock')).body.now, '2027-01-31T10:00:00.000000Z', "a's clock where a's advance left it");
  t.equal((await b2.get('/_payemu/clock')).body.now, START, "b's where it was");
  t.equal((await e2.api.get('/_payemu/clock')).body.now, START, "the default's where it was");
  t.same(
    (await a2.get('/v1/payments')).body.data.map((p: { id: string }) => p.id),
    ['2', '1'],
    "a's payments",
  );
  const next = await pay(e2, { amount: 5, reference: 'a-3' }, '4242424242424242', a2);
  t.equal(next.completed.body.payment.id, 3, "a's ids go on from a's own counter");
  t.equal((await pay(e2, { amount: 6, reference: 'b-2' }, '4242424242424242', b2)).completed.body.payment.id, 2, "and b's from b's");
  const taken = await b2.post('/v1/sessions', { amount: 1, reference: 'b-1' });
  t.equal(taken.status, 409, 'a reference in use in b is still refused in b (its index keys read back)');
  t.equal((await e2.api.post('/v1/sessions', { amount: 1, reference: 'b-1' })).status, 201, 'and free in the default');

  // The retries are due an hour after the failed attempts, on each namespace's own clock.
  await e2.idle();
  const before = r.received.length;
  t.equal((await b2.post('/_payemu/clock/advance', { by: '1h' })).status, 200);
  await e2.idle();
  t.equal(await pendingIn(b2), 0, "b's deliveries went out on b's advance");
  t.ok(await pendingIn(a2), "a's still wait: b's advance does not run a's retries");
  t.ok(r.received.length > before, 'the receiver got them');
  t.equal((await a2.post('/_payemu/clock/advance', { by: '1h' })).status, 200);
  await e2.idle();
  t.equal(await pendingIn(a2), 0, "then a's on a's advance");
});

t.test('work that fell due in a namespace while payemu was stopped runs at start, in that namespace only', async (t) => {
  const dir = t.testdir();
  // Real time moves the clock: a daily schedule starting tomorrow falls due 6 s after the start (a margin for a busy machine).
  const now = Date.now();
  const clockStart = '2027-01-01T23:59:54Z';
  const options = { inMemory: false, dataDir: dir, clockStart };
  const e1 = await emulator(t, options);
  const a1 = client(e1.url, `${KEY}~a`);
  const { completed } = await pay(e1, { amount: 1, save_payment_method: true }, '4242424242424242', a1);
  const made = await a1.post('/v1/recurring-payments', {
    payment_method: completed.body.payment.payment_method,
    amount: 3,
    frequency: 'daily',
    start_date: '2027-01-02',
    reference: 'sub-a',
  });
  t.equal(made.status, 201, 'a daily schedule starting tomorrow');
  t.equal((await a1.get('/v1/payments')).body.meta.total, 1, 'not charged yet');
  await e1.close();
  t.ok(Date.now() - now < 5000, 'stopped before it fell due');
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, now + 6500 - Date.now())));

  const e2 = await emulator(t, options);
  const a2 = client(e2.url, `${KEY}~a`);
  const charges = (await a2.get('/v1/payments')).body;
  t.equal(charges.meta.total, 2, 'charged by the start itself');
  t.equal((await a2.get('/v1/recurring-payments/sub-a')).body.data.attributes.next_billing_date.slice(0, 10), '2027-01-03');
  t.equal((await e2.api.get('/v1/payments')).body.meta.total, 0, 'nothing in the default');
  t.ok(Date.parse((await a2.get('/_payemu/clock')).body.now) > Date.parse('2027-01-02T00:00:00Z'), "a's clock moved on in real time while stopped");
});

t.test('--freeze-clock applies to every namespace at start, --clock-start to the default only', async (t) => {
  const dir = t.testdir();
  const e1 = await emulator(t, { inMemory: false, dataDir: dir, clockStart: START, freezeClock: true });
  const a1 = client(e1.url, `${KEY}~a`);
  await a1.post('/_payemu/clock/advance', { by: '1d' });
  await e1.close();

  const e2 = await emulator(t, { inMemory: false, dataDir: dir, clockStart: '2030-06-01T00:00:00Z' });
  const a2 = client(e2.url, `${KEY}~a`);
  t.equal((await e2.api.get('/_payemu/clock')).body.now.slice(0, 10), '2030-06-01', '--clock-start moves the default');
  const unfrozen = (await a2.get('/_payemu/clock')).body;
  t.equal(unfrozen.frozen, false, 'without --freeze-clock, a runs in real time again');
  t.equal(unfrozen.now.slice(0, 10), '2027-01-02', 'from where it stood: --clock-start does not move it');
  await e2.close();

  const e3 = await emulator(t, { inMemory: false, dataDir: dir, freezeClock: true });
  const a3 = client(e3.url, `${KEY}~a`);
  const frozen = (await a3.get('/_payemu/clock')).body;
  t.equal(frozen.frozen, true, '--freeze-clock freezes a at start');
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.equal((await a3.get('/_payemu/clock')).body.now, frozen.now, 'and it stays put');
  t.equal((await e3.api.get('/_payemu/clock')).body.frozen, true);
});

t.test('what a crash or a hand left in DATA/namespaces: removed when nothing in it was answered, else left alone', async (t) => {
  const dir = t.testdir();
  const e1 = await emulator(t, { inMemory: false, dataDir: dir });
  t.equal((await client(e1.url, `${KEY}~kept`).get('/v1/me')).status, 200);
  await e1.close();
  const ns = path.join(dir, 'namespaces');
  // A crash between the directory and its first line: an empty segment, or one cut short.
  fs.mkdirSync(path.join(ns, 'empty'));
  fs.writeFileSync(path.join(ns, 'empty', 'journal-000001.ndjson'), '');
  fs.mkdirSync(path.join(ns, 'torn'));
  fs.writeFileSync(path.join(ns, 'torn', 'journal-000001.ndjson'), '[["meta","clock",{"id":"clo');
  fs.mkdirSync(path.join(ns, 'bare'));
  // A deletion cut short, and entries no key can select.
  fs.mkdirSync(path.join(ns, '.deleted-gone-0a1b2c3d'));
  fs.mkdirSync(path.join(ns, 'Not-A-Name'));
  fs.writeFileSync(path.join(ns, 'Not-A-Name', 'keep.txt'), 'mine');
  fs.writeFileSync(path.join(ns, 'file'), 'a file where a directory would be');

  const e2 = await emulator(t, { inMemory: false, dataDir: dir });
  t.same(
    (await e2.api.get('/_payemu/namespaces')).body.namespaces.map((n: { name: string }) => n.name),
    ['kept'],
    'only the namespace that answered is read back',
  );
  t.same(fs.readdirSync(ns).sort(), ['Not-A-Name', 'file', 'kept'], 'the unanswered and deleted ones are removed, the rest left alone');
  t.equal(fs.readFileSync(path.join(ns, 'Not-A-Name', 'keep.txt'), 'utf8'), 'mine');
  const blocked = await client(e2.url, `${KEY}~file`).post('/v1/sessions', { amount: 1 });
  assertError(t, blocked, 503, /cannot write its data directory: .*namespaces\/file: a file is where its directory belongs/);
  t.equal((await client(e2.url, `${KEY}~torn`).get('/v1/me')).status, 200, 'a removed one is made afresh on its next request');
});

t.test('more kept namespaces than --max-namespaces: all read back, new ones refused', async (t) => {
  const dir = t.testdir();
  const e1 = await emulator(t, { inMemory: false, dataDir: dir });
  for (const name of ['n1', 'n2', 'n3']) await pay(e1, { amount: 1 }, '4242424242424242', client(e1.url, `${KEY}~${name}`));
  await e1.close();
  const e2 = await emulator(t, { inMemory: false, dataDir: dir, maxNamespaces: 2 });
  t.same(
    (await e2.api.get('/_payemu/namespaces')).body.namespaces.map((n: { name: string; counts: { payments: number } }) => [n.name, n.counts.payments]),
    [
      ['n1', 1],
      ['n2', 1],
      ['n3', 1],
    ],
  );
  t.equal((await client(e2.url, `${KEY}~n3`).get('/v1/payments')).status, 200, 'each answers');
  assertError(t, await client(e2.url, `${KEY}~n4`).get('/v1/me'), 429, /2 namespaces, the most --max-namespaces allows/);
});

t.test('a damaged namespace stops the start, naming its directory, and leaves the data directory free', async (t) => {
  const dir = t.testdir();
  const e1 = await emulator(t, { inMemory: false, dataDir: dir });
  await pay(e1, { amount: 1 }, '4242424242424242', client(e1.url, `${KEY}~w3`));
  await e1.close();
  const segment = path.join(dir, 'namespaces', 'w3', 'journal-000001.ndjson');
  const whole = fs.readFileSync(segment, 'utf8');
  const lines = whole.split('\n');
  lines[1] = 'not json';
  fs.writeFileSync(segment, lines.join('\n'));
  await t.rejects(startEmulator({ port: 0, inMemory: false, dataDir: dir }), {
    message: new RegExp(`store damaged: journal-000001.ndjson line 2 .*\\(in ${path.join(dir, 'namespaces', 'w3')}\\)`),
  });
  t.notOk(fs.existsSync(path.join(dir, 'payemu.lock')), 'the lock is released');
  fs.writeFileSync(segment, whole);
  const e2 = await emulator(t, { inMemory: false, dataDir: dir });
  t.equal((await client(e2.url, `${KEY}~w3`).get('/v1/me')).status, 200, 'once whole again, it starts');
});

t.test("each namespace's own webhook destination and its pending deliveries outlive a restart: a receiver down, restart, receiver up", async (t) => {
  const dir = t.testdir();
  const down = (_req: unknown, res: import('node:http').ServerResponse) => {
    res.statusCode = 503;
    res.end('down');
  };
  const ra = await receiver(t, down);
  const rb = await receiver(t, down);
  const options = { inMemory: false, dataDir: dir, freezeClock: true, webhookBackoff: '1h,1h,1h' };
  const e1 = await emulator(t, options);
  for (const [name, r] of [
    ['a', ra],
    ['b', rb],
  ] as const) {
    const api = client(e1.url, `${KEY}~${name}`);
    t.equal((await api.request('PUT', '/_payemu/webhook', { url: r.url })).status, 200, `${name} sends to its own receiver`);
    await pay(e1, { amount: 1, reference: `${name}-1` }, '4242424242424242', api);
  }
  await e1.idle();
  t.ok(ra.received.length > 0 && rb.received.length > 0, 'the first attempts failed');
  await e1.close();

  for (const r of [ra, rb]) r.answer((_req, res) => res.end('ok'));
  const e2 = await emulator(t, options);
  const a2 = client(e2.url, `${KEY}~a`);
  t.match((await a2.get('/_payemu/webhook')).body, { url: ra.url, overridden: true }, "a's destination is kept");
  const before = { a: ra.received.length, b: rb.received.length };
  await a2.post('/_payemu/clock/advance', { by: '1h' });
  await e2.idle();
  const retried = ra.received.slice(before.a);
  t.ok(retried.length > 0, "a's retries went out on a's advance, to a's receiver");
  t.ok(
    retried.every((r) => r.headers['payemu-namespace'] === 'a'),
    'each with Payemu-Namespace: a',
  );
  t.equal(rb.received.length, before.b, "b's wait for b's clock");
  t.same(
    (await a2.get('/_payemu/events')).body.events.map((ev: { delivery_status: string }) => ev.delivery_status),
    (await a2.get('/_payemu/events')).body.events.map(() => 'delivered'),
    "a's deliveries are done",
  );
});
