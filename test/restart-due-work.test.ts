import fs from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { emulator, pay, type TestEmulator } from './helpers/emulator.js';
import { receiver } from './helpers/receiver.js';

/**
 * A restart reads the snapshot's records only when something asks for them, and finds the due
 * work from the records the clean stop marked and the due times it kept (docs/storage.md): what
 * a user sees must not change. Every read answers as before the stop, and every kind of due work still happens when
 * the clock reaches it, with the snapshot marked or not (one written by an older version).
 */

const START = '2027-01-01T10:00:00Z';
const INVOICE = {
  customer_name: 'Ada Lovelace',
  customer_email: 'ada@example.com',
  currency: 'USD',
  due_date: '2027-01-05',
  items: [{ description: 'Consulting', quantity: 1, unit_price: 12 }],
};

/**
 * A data directory holding a paid payment, an open session, an authorized payment, an active
 * schedule, a sent invoice and webhook deliveries waiting for a retry (the receiver fails).
 * `compactAfterBytes: 1` makes a snapshot during the run; the clean stop writes it with marks.
 */
async function seeded(t: Test) {
  const dir = t.testdir();
  const r = await receiver(t, (_req, res) => {
    res.statusCode = 500;
    res.end('down');
  });
  const options = { clockStart: START, freezeClock: true, inMemory: false, dataDir: dir, compactAfterBytes: 1, webhookUrl: r.url, webhookBackoff: '1h,1h,1h' };
  const e = await emulator(t, options);
  await pay(e, { amount: 10, reference: 'paid-1' });
  const open = await e.api.post('/v1/sessions', { amount: 5, reference: 'open-1' });
  await pay(e, { amount: 100, reference: 'hold-1', capture_method: 'manual' });
  const card = await pay(e, { amount: 1, reference: 'card-1', save_payment_method: true });
  const schedule = await e.api.post('/v1/recurring-payments', {
    payment_method: card.completed.body.payment.payment_method,
    amount: 3,
    frequency: 'daily',
    reference: 'sub-1',
    start_date: '2027-01-02',
  });
  t.equal(schedule.status, 201);
  const invoice = (await e.api.post('/v1/invoices', INVOICE)).body.data.id as string;
  t.equal((await e.api.post(`/v1/invoices/${invoice}/send`)).status, 200);
  await e.idle(); // every first delivery attempt made (and failed)
  const ids = { session: open.body.data.id as string, invoice };
  const before = await reads(e, ids);
  t.ok(
    e.events.list().some((event) => event.delivery_status === 'retrying'),
    'deliveries wait for a retry',
  );
  await e.close();
  return { dir, options, ids, before, received: () => r.received.length };
}

/** What a user reads: each record, the lists, and the event log with its deliveries (links without the port, new at each start). */
async function reads(e: TestEmulator, ids: { session: string; invoice: string }) {
  const body = async (url: string) => JSON.parse((await e.api.get(url)).text.replaceAll(e.url, 'URL'));
  return {
    paid: await body('/v1/payments/paid-1'),
    hold: await body('/v1/payments/hold-1'),
    session: await body(`/v1/sessions/${ids.session}`),
    schedule: await body('/v1/recurring-payments/sub-1'),
    invoice: await body(`/v1/invoices/${ids.invoice}`),
    payments: await body('/v1/payments'),
    invoices: await body('/v1/invoices'),
    events: e.events.list(),
  };
}

/** Advances past every due time, and checks that each kind of work ran. */
async function dueWorkRuns(t: Test, e: TestEmulator, ids: { session: string; invoice: string }, received: number, receivedNow: () => number) {
  const { ran } = await e.clock.advance('8d');
  t.ok(ran['session.expired'], 'the open session expired');
  t.ok(ran['payment.authorization_expired'], 'the authorization expired');
  t.ok(ran['recurring.charge'], 'the schedule charged');
  t.ok(ran['invoice.overdue'], 'the invoice turned overdue');
  t.equal((await e.api.get(`/v1/sessions/${ids.session}`)).body.data.attributes.status, 'expired');
  t.equal((await e.api.get(`/v1/invoices/${ids.invoice}`)).body.data.attributes.status, 'overdue');
  t.not((await e.api.get('/v1/payments/hold-1')).body.data.attributes.status, 'AUTHORIZED');
  t.ok(receivedNow() > received, `the deliveries were retried (${receivedNow() - received} more attempts)`);
}

t.test('after a clean stop, a restart answers every read as before and runs the due work', async (t) => {
  const { dir, options, ids, before, received } = await seeded(t);
  const head = fs.readFileSync(path.join(dir, 'snapshot.json'), 'utf8').split('\n', 1)[0]!;
  t.match(head, /"marks":\{.*"sessions":\["session\.expired"\]/, 'the snapshot marks the records with due work');
  const keys = JSON.parse(fs.readFileSync(path.join(dir, 'index-keys.json'), 'utf8').split('\n', 1)[0]!) as { collections: object };
  t.match(keys.collections, { sessions: { count: 4 }, payments: { count: 3 } }, "the stop kept the records' index keys beside the snapshot");
  t.match(
    keys.collections,
    { 'sessions due': { count: 4 }, 'payments due': { count: 3 }, 'recurring_payments due': { count: 1 }, 'invoices due': { count: 1 } },
    'and the due times of the scheduled work, which the restart schedules from',
  );
  const e = await emulator(t, options);
  t.same(await reads(e, ids), before, 'every read answers as before the stop');
  // Looked up by the reference keys kept at the stop (the payment itself left unparsed).
  const taken = await e.api.post('/v1/sessions', { amount: 5, reference: 'paid-1' });
  t.equal(taken.status, 409, 'a reference in use is refused after the restart');
  t.match(taken.text, 'A payment with the reference \\"paid-1\\" already exists with status PAID');
  const attempts = received();
  await dueWorkRuns(t, e, ids, attempts, received);
});

t.test('a snapshot without marks (an older version): the due work still runs after a restart', async (t) => {
  const { dir, options, ids, before, received } = await seeded(t);
  const file = path.join(dir, 'snapshot.json');
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines[0] = lines[0]!.replace(/"marks":\{.*\},"collections"/, '"collections"');
  fs.writeFileSync(file, lines.map((line) => line.replace(/^ /, '')).join('\n'));
  t.notMatch(fs.readFileSync(file, 'utf8'), /marks|\n /, 'no mark is left');
  const e = await emulator(t, options);
  t.same(await reads(e, ids), before, 'every read answers as before the stop');
  await dueWorkRuns(t, e, ids, received(), received);
});

t.test('work that a write after the restart made undue does not run', async (t) => {
  const { options, ids } = await seeded(t);
  const e = await emulator(t, options);
  const completed = await e.api.post(`/_payemu/sessions/${ids.session}/complete`, { card_number: '4242424242424242' });
  t.equal(completed.status, 200, 'the open session is paid after the restart');
  const { ran } = await e.clock.advance('8d');
  t.notOk(ran['session.expired'], 'so it does not expire when its expiry, scheduled at start, comes');
  t.ok(ran['invoice.overdue'] && ran['recurring.charge'], 'the other due work runs');
  t.not((await e.api.get(`/v1/sessions/${ids.session}`)).body.data.attributes.status, 'expired');
});
