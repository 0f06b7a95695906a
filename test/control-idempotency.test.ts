import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { control } from '../src/http/route.js';
import { startPayemu } from './helpers/cli.js';
import { assertError, client, emulator, pay, type Answer, type TestEmulator, dailySchedules } from './helpers/emulator.js';
import { prng } from './helpers/prng.js';
import { receiver } from './helpers/receiver.js';

/**
 * The control plane's POSTs honour `Idempotency-Key` as /v1 does (issue 34, defect 4): the same
 * key and body replay the first answer (status, byte-identical body, `Idempotent-Replayed:
 * true`) and the work runs once; another body with the key is a 409; nothing is a 5xx. A clock
 * advance and a trigger run across awaits and several transactions: a duplicate that arrives
 * while the first still runs waits for it and is answered with the replay.
 */

const START = '2027-01-01T10:00:00Z';
const key = (k: string) => ({ 'Idempotency-Key': k });

function replayed(t: Test, first: Answer, again: Answer, what: string): void {
  t.equal(again.status, first.status, `${what}: the original status`);
  t.equal(again.text, first.text, `${what}: the byte-identical body`);
  t.equal(first.headers.get('idempotent-replayed'), null, `${what}: the first is not a replay`);
  t.equal(again.headers.get('idempotent-replayed'), 'true', `${what}: Idempotent-Replayed`);
}

async function dailySchedule(t: Test, e: TestEmulator): Promise<void> {
  const { completed } = await pay(e, { amount: 1, save_payment_method: true });
  const pm = completed.body.payment.payment_method;
  const created = await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 2, frequency: 'daily', start_date: '2027-01-02' });
  t.equal(created.status, 201);
}

async function eventCount(e: TestEmulator, name: string): Promise<number> {
  const events = (await e.api.get('/_payemu/events')).body.events as { event: string }[];
  return events.filter((event) => event.event === name).length;
}

t.test('clock/advance: the same key twice moves the clock and charges once; another body is a 409', async (t) => {
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  await dailySchedule(t, e);
  const first = await e.api.post('/_payemu/clock/advance', { by: '3d' }, key('adv-1'));
  t.equal(first.status, 200);
  t.equal(first.body.now, '2027-01-04T10:00:00.000000Z');
  t.equal(await eventCount(e, 'recurring.charged'), 3, 'three daily charges');

  const again = await e.api.post('/_payemu/clock/advance', { by: '3d' }, key('adv-1'));
  replayed(t, first, again, 'advance');
  t.equal((await e.api.get('/_payemu/clock')).body.now, '2027-01-04T10:00:00.000000Z', 'the clock moved once');
  t.equal(await eventCount(e, 'recurring.charged'), 3, 'charged once');

  assertError(t, await e.api.post('/_payemu/clock/advance', { by: '4d' }, key('adv-1')), 409, /Idempotency-Key/);
  assertError(t, await e.api.post('/_payemu/reset', {}, key('adv-1')), 409, /Idempotency-Key/);
  t.equal((await e.api.get('/_payemu/clock')).body.now, '2027-01-04T10:00:00.000000Z', 'the refused request did nothing');

  // A refusal by the rules is an answer too, replayed as /v1 replays one.
  const bad = await e.api.post('/_payemu/clock/advance', { by: '3654d' }, key('adv-2'));
  t.equal(bad.status, 422);
  replayed(t, bad, await e.api.post('/_payemu/clock/advance', { by: '3654d' }, key('adv-2')), 'a refused advance');
});

t.test('clock/advance: the key lasts 24 hours from the answer, not from the request', async (t) => {
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  const first = await e.api.post('/_payemu/clock/advance', { by: '3d' }, key('adv-window'));
  await e.api.post('/_payemu/clock/advance', { by: '23h' });
  replayed(t, first, await e.api.post('/_payemu/clock/advance', { by: '3d' }, key('adv-window')), 'within 24 h of the answer');
  await e.api.post('/_payemu/clock/advance', { by: '1h' });
  const fresh = await e.api.post('/_payemu/clock/advance', { by: '3d' }, key('adv-window'));
  t.equal(fresh.headers.get('idempotent-replayed'), null, 'after 24 h the key is new again');
  t.equal(fresh.body.now, '2027-01-08T10:00:00.000000Z');
});

t.test('clock/advance: duplicates sent while the first still runs wait for it and replay it', async (t) => {
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  await dailySchedule(t, e);
  // A year of daily charges: the advance spans many batches and turns of the event loop.
  const answers = await Promise.all(Array.from({ length: 5 }, () => e.api.post('/_payemu/clock/advance', { by: '365d' }, key('adv-race'))));
  t.same(
    answers.map((a) => a.status),
    [200, 200, 200, 200, 200],
  );
  t.equal(new Set(answers.map((a) => a.text)).size, 1, 'one body for all');
  t.equal(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true').length, 4, 'four replays');
  t.equal((await e.api.get('/_payemu/clock')).body.now, '2028-01-01T10:00:00.000000Z', 'the clock moved a year, once');
  const different = await e.api.post('/_payemu/clock/advance', { by: '1d' }, key('adv-race'));
  assertError(t, different, 409, /Idempotency-Key/);
});

t.test('clock/advance: a key saved with the advance survives a restart', async (t) => {
  const dir = t.testdir();
  const e1 = await emulator(t, { inMemory: false, dataDir: dir, clockStart: START, freezeClock: true });
  const first = await e1.api.post('/_payemu/clock/advance', { by: '2d' }, key('adv-durable'));
  await e1.close();
  const e2 = await emulator(t, { inMemory: false, dataDir: dir, freezeClock: true });
  const again = await e2.api.post('/_payemu/clock/advance', { by: '2d' }, key('adv-durable'));
  replayed(t, first, again, 'after a restart');
  t.equal((await e2.api.get('/_payemu/clock')).body.now, '2027-01-03T10:00:00.000000Z', 'the clock moved once');
});

t.test('trigger: the same key twice makes the event happen once; another body is a 409', async (t) => {
  const e = await emulator(t);
  const body = { event: 'payment.completed', data: { reference: 'trig-once' } };
  const first = await e.api.post('/_payemu/trigger', body, key('trig-1'));
  t.equal(first.status, 200);
  const again = await e.api.post('/_payemu/trigger', { data: { reference: 'trig-once' }, event: 'payment.completed' }, key('trig-1'));
  replayed(t, first, again, 'trigger');
  t.equal(await eventCount(e, 'payment.completed'), 1, 'one payment.completed');
  assertError(t, await e.api.post('/_payemu/trigger', { event: 'payment.failed' }, key('trig-1')), 409, /Idempotency-Key/);
  t.equal(await eventCount(e, 'payment.failed'), 0, 'the refused request did nothing');

  const both = await Promise.all([0, 1, 2].map(() => e.api.post('/_payemu/trigger', { event: 'payment.completed' }, key('trig-race'))));
  t.equal(new Set(both.map((a) => a.text)).size, 1, 'concurrent duplicates: one body');
  t.equal(await eventCount(e, 'payment.completed'), 2, 'concurrent duplicates ran once');
});

t.test('snapshot import: the same key twice imports once; another body is a 409', async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 5, reference: 'snap-before' });
  const snapshot = (await e.api.get('/_payemu/snapshot')).body;
  const first = await e.api.post('/_payemu/snapshot', snapshot, key('snap-1'));
  t.equal(first.status, 200);
  t.equal(first.body.counts.payments, 1);
  await pay(e, { amount: 6, reference: 'snap-after' });
  const again = await e.api.post('/_payemu/snapshot', snapshot, key('snap-1'));
  replayed(t, first, again, 'import');
  t.equal((await e.api.get('/v1/payments/snap-after')).status, 200, 'not imported again: the payment made since is still there');
  assertError(t, await e.api.post('/_payemu/snapshot', { ...snapshot, data: {} }, key('snap-1')), 409, /Idempotency-Key/);
  t.equal((await e.api.get('/v1/payments/snap-after')).status, 200, 'the refused request did nothing');
});

t.test('reset, faults, outcomes and pay: the same key replays, another body is a 409', async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 5, reference: 'reset-me' });
  const reset = await e.api.post('/_payemu/reset', {}, key('reset-1'));
  t.equal(reset.status, 200);
  await pay(e, { amount: 5, reference: 'kept' });
  replayed(t, reset, await e.api.post('/_payemu/reset', {}, key('reset-1')), 'reset');
  t.equal((await e.api.get('/v1/payments/kept')).status, 200, 'reset ran once');
  assertError(t, await e.api.post('/_payemu/reset', { all: true }, key('reset-1')), 409);

  const fault = { path: '/v1/sessions', status: 503 };
  const added = await e.api.post('/_payemu/faults', fault, key('fault-1'));
  t.equal(added.status, 201);
  replayed(t, added, await e.api.post('/_payemu/faults', fault, key('fault-1')), 'fault');
  t.equal((await e.api.get('/_payemu/faults')).body.faults.length, 1, 'one fault added');
  assertError(t, await e.api.post('/_payemu/faults', { ...fault, status: 502 }, key('fault-1')), 409);
  await e.api.request('DELETE', '/_payemu/faults');
});

t.test('a hostile mix of control-plane POSTs with Idempotency-Keys is never a 5xx', async (t) => {
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  await dailySchedule(t, e);
  const random = prng(34);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const snapshot = (await e.api.get('/_payemu/snapshot')).body;
  const bodies: [string, unknown][] = [
    ['/_payemu/clock/advance', { by: '1d' }],
    ['/_payemu/clock/advance', { by: '90m' }],
    ['/_payemu/clock/advance', { by: 3600 }],
    ['/_payemu/clock/advance', { to: '2026-01-01T00:00:00Z' }],
    ['/_payemu/clock/advance', { by: '9999d' }],
    ['/_payemu/clock/advance', { by: 'soon' }],
    ['/_payemu/clock/advance', { by: '1d', to: '2030-01-01' }],
    ['/_payemu/clock/advance', []],
    ['/_payemu/trigger', { event: 'payment.completed' }],
    ['/_payemu/trigger', { event: 'refund.created' }],
    ['/_payemu/trigger', { event: 'nope' }],
    ['/_payemu/trigger', { event: 'payment.completed', data: { bogus: 1 } }],
    ['/_payemu/trigger', { event: 'payment.completed', source: 'nobody' }],
    ['/_payemu/snapshot', snapshot],
    ['/_payemu/snapshot', { payemu_snapshot: 99 }],
    ['/_payemu/snapshot', { ...snapshot, data: { nothing: [] } }],
    ['/_payemu/reset', {}],
    ['/_payemu/faults', { path: '/v1/nowhere', status: 500 }],
    ['/_payemu/faults', { status: 'x' }],
    ['/_payemu/outcomes', { nonsense: true }],
    ['/_payemu/events/evt_missing/resend', {}],
    ['/_payemu/sessions/ses_missing/complete', { card_number: '4242424242424242' }],
    ['/_payemu/invoices/1/pay', { card_number: '4242424242424242' }],
    ['/_payemu/payment-links/1/pay', { card_number: '1234' }],
  ];
  const keys = ['a', 'b', 'c', 'd', 'é', 'k'.repeat(255), 'k'.repeat(256), ''];
  const statuses = new Map<number, number>();
  for (let round = 0; round < 8; round++) {
    const batch = Array.from({ length: 12 }, (_, i) => {
      const [path, body] = pick(bodies);
      // Shared keys (replays, 409s, duplicates in flight) and fresh ones (the work runs).
      const k = random() < 0.5 ? pick(keys) : `fresh-${round}-${i}`;
      return e.api.post(path, body as Record<string, unknown>, { 'Idempotency-Key': encodeURIComponent(k) }).then((a) => {
        statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
        t.ok(a.status < 500, `${path} with key ${k.slice(0, 8)}: ${a.status} ${a.status >= 500 ? a.text : ''}`);
      });
    });
    await Promise.all(batch);
  }
  t.ok(statuses.size > 2, `a mix of answers: ${JSON.stringify([...statuses])}`);
  t.equal((await e.api.get('/_payemu/health')).status, 200);
});

t.test('kill -9 after an advance with a key: the retry replays it; killed in the middle: a retry with "to" ends at the target, nothing twice', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-advance-key-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const args = ['--data', dir, '--clock-start', START, '--freeze-clock', '--no-ui'];
  const first = await startPayemu(t, args);
  const api = client(first.url, 'sk_test_payemu_acme');
  const SCHEDULES = 5;
  await dailySchedules(t, api, SCHEDULES, 'k');
  // Answered, then killed at once: no clean stop wrote a snapshot; the journal holds the key.
  const answered = await api.post('/_payemu/clock/advance', { by: '3d' }, key('crash-after'));
  t.equal(answered.status, 200);
  first.proc.child.kill('SIGKILL');
  await first.proc.exited;

  const second = await startPayemu(t, args);
  const again = client(second.url, 'sk_test_payemu_acme');
  replayed(t, answered, await again.post('/_payemu/clock/advance', { by: '3d' }, key('crash-after')), 'after kill -9');
  t.equal((await again.get('/_payemu/clock')).body.now, '2027-01-04T10:00:00.000000Z', 'the clock moved once');
  t.equal((await again.get('/v1/payments')).body.meta.total, 1 + SCHEDULES * 3, 'three days charged once');

  // A long advance to a target, killed in the middle (if it has not ended by then).
  const target = '2032-01-01T10:00:00.000Z';
  const long = again.post('/_payemu/clock/advance', { to: target }, key('crash-during')).catch(() => undefined);
  let seen = Date.parse('2027-01-04T10:00:00Z');
  while (seen < Date.parse('2027-03-01T00:00:00Z')) seen = Date.parse((await again.get('/_payemu/clock')).body.now);
  second.proc.child.kill('SIGKILL');
  await second.proc.exited;
  await long;

  const third = await startPayemu(t, args);
  const last = client(third.url, 'sk_test_payemu_acme');
  const retry = await last.post('/_payemu/clock/advance', { to: target }, key('crash-during'));
  t.equal(retry.status, 200, 'the retry runs the rest (or replays, had the advance ended)');
  t.comment(retry.headers.get('idempotent-replayed') === 'true' ? 'the advance had ended before the kill' : 'killed in the middle: the retry ran the rest');
  t.equal(Date.parse((await last.get('/_payemu/clock')).body.now), Date.parse(target), 'the clock stands at the target');
  const days = Math.floor((Date.parse(target) - Date.parse('2027-01-02T00:00:00Z')) / 86_400_000) + 1;
  for (let i = 0; i < SCHEDULES; i++) {
    const total = (await last.get(`/v1/payments?filter[customer_email]=k${i}@example.com`)).body.meta.total;
    if (total !== days) t.fail(`schedule k${i}: ${total} charges, ${days} expected`);
  }
  replayed(t, retry, await last.post('/_payemu/clock/advance', { to: target }, key('crash-during')), 'the retry is saved in turn');
  t.equal((await third.proc.stop('SIGTERM')).code, 0);
});

t.test('a POST that cannot honour a key refuses it with a 400; an asynchronous route is replayed, its crash is not saved', async (t) => {
  let runs = 0;
  let crashes = 0;
  const e = await emulator(t, {
    extraRoutes: [
      control({ method: 'POST', path: '/_test/no-key', idempotent: false, handle: () => ({ status: 200, json: { runs: ++runs } }) }),
      control({
        method: 'POST',
        path: '/_test/slow',
        handle: async () => {
          await new Promise((resolve) => setTimeout(resolve, 50));
          return { status: 200, json: { runs: ++runs } };
        },
      }),
      control({
        method: 'POST',
        path: '/_test/slow-crash',
        handle: async () => {
          await new Promise((resolve) => setTimeout(resolve, 10));
          throw new Error(`crash ${++crashes}`);
        },
      }),
    ],
  });
  assertError(t, await e.api.post('/_test/no-key', {}, key('refused')), 400, /does not take an Idempotency-Key/);
  t.equal(runs, 0, 'refused before it ran');
  t.equal((await e.api.post('/_test/no-key', {})).status, 200, 'without a key it runs');

  const [a, b] = await Promise.all([e.api.post('/_test/slow', {}, key('slow')), e.api.post('/_test/slow', {}, key('slow'))]);
  t.equal(a!.text, b!.text);
  t.equal(runs, 2, 'the slow route ran once for two requests with one key');
  assertError(t, await e.api.post('/_test/slow', { other: 1 }, key('slow')), 409);

  assertError(t, await e.api.post('/_test/slow-crash', {}, key('crash')), 500);
  assertError(t, await e.api.post('/_test/slow-crash', {}, key('crash')), 500);
  t.equal(crashes, 2, 'a 5xx is not saved: the retry runs again, as on /v1');
});

t.test('snapshot import with a key: the deliveries the snapshot left pending still go out', async (t) => {
  let failing = true;
  const r = await receiver(t, (_req, res) => {
    res.statusCode = failing ? 500 : 200;
    res.end('ok');
  });
  const e = await emulator(t, { clockStart: START, freezeClock: true, webhookUrl: r.url });
  await pay(e, { amount: 13, reference: 'retry-me' });
  await e.idle(); // the first attempt failed; the retry waits for the (frozen) clock
  failing = false;
  const snapshot = (await e.api.get('/_payemu/snapshot?all=true')).body;
  t.equal((await e.api.post('/_payemu/reset', { all: true })).status, 200);
  const imported = await e.api.post('/_payemu/snapshot?all=true', snapshot, key('import-all'));
  t.equal(imported.status, 200);
  replayed(t, imported, await e.api.post('/_payemu/snapshot?all=true', snapshot, key('import-all')), 'import all');
  const res = await e.api.post('/_payemu/clock/advance', { by: '1m' });
  t.equal(res.body.ran['webhook.retry'], 1, 'the pending delivery is retried');
  await e.idle();
  t.equal((await e.api.get('/_payemu/events?reference=retry-me')).body.events[0].delivery_status, 'delivered');
});

t.test('with a key, a control-plane POST answers and acts as it does without one (link pay, event resend)', async (t) => {
  const r = await receiver(t);
  const e = await emulator(t, { clockStart: START, freezeClock: true, webhookUrl: r.url });
  const answers: Answer[] = [];
  for (const headers of [{}, key('link-pay')]) {
    const link = await e.api.post('/v1/payment-links', { title: 'Tee', amount: 20, max_uses: 2 });
    const paid = await e.api.post(`/_payemu/payment-links/${link.body.data.id}/pay`, { card_number: '4242424242424242' }, headers);
    t.equal(paid.status, 200);
    answers.push(paid);
  }
  t.same(
    answers.map((a) => a.body.payment_link.uses_count),
    [1, 1],
    'the link as paid (one use), with a key as without',
  );
  await e.idle();
  const event = (await e.api.get('/_payemu/events')).body.events[0];
  for (const headers of [{}, key('resend')]) {
    const before = r.received.length;
    const resent = await e.api.post(`/_payemu/events/${event.id}/resend`, {}, headers);
    t.equal(resent.status, 200);
    await e.idle();
    t.equal(r.received.length, before + 1, `resent ${Object.keys(headers).length > 0 ? 'with' : 'without'} a key: delivered once more`);
  }
});
