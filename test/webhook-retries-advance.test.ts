import type { ServerResponse } from 'node:http';
import t from 'tap';
import { MAX_IN_FLIGHT_PER_SOURCE } from '../src/webhooks/lanes.js';
import { emulator, pay, type TestEmulator } from './helpers/emulator.js';
import { receiver } from './helpers/receiver.js';

/**
 * Webhook retries fall due on the virtual clock, and a clock advance runs every retry that falls
 * due within the span it advances, in time order, each awaited before the clock moves past it:
 * a retry that fails schedules the next one, which runs in the same advance if it is due by its
 * end. The advance reports them as `webhook.retry`. The clock is frozen, so the due times are
 * exact: the first attempt at T0 (when the payment is made), then T0+1s, T0+6s, T0+31s.
 */

const T0 = '2027-03-01T10:00:00.000000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
const options = { clockStart: T0, freezeClock: true, webhookBackoff: '1s,5s,25s' };

/** A receiver that answers 500 to its first `failures` requests, then 200. */
async function failing(t: Parameters<typeof receiver>[0], failures: number) {
  let n = 0;
  return receiver(t, (_req, res) => {
    res.statusCode = ++n <= failures ? 500 : 200;
    res.end(res.statusCode === 200 ? 'ok' : 'no thanks');
  });
}

async function eventOf(e: TestEmulator, reference: string) {
  const listed = (await e.api.get(`/_payemu/events?reference=${reference}`)).body.events;
  return (await e.api.get(`/_payemu/events/${listed[0].id}`)).body;
}

t.test('one advance of a minute runs every retry due in it, in order, and reports them', async (t) => {
  const r = await failing(t, 3);
  const e = await emulator(t, { ...options, webhookUrl: r.url });
  // No waiting for the first attempt: an attempt still out when the advance begins is awaited by it.
  await pay(e, { amount: 10, reference: 'chain' });
  const res = await e.api.post('/_payemu/clock/advance', { by: '1m' });
  t.equal(res.status, 200);
  t.equal(res.body.now, at(60));
  t.same(res.body.ran, { 'webhook.retry': 3 }, 'three retries ran in the advance');
  const event = await eventOf(e, 'chain');
  t.same(
    res.body.items,
    [1, 6, 31].map((s) => ({ kind: 'webhook.retry', id: event.id, at: at(s) })),
    'in time order, each at its due time',
  );
  t.equal(r.received.length, 4, 'the receiver got all four attempts by the time the advance answered');
  t.equal(event.delivery_status, 'delivered');
  t.equal(event.next_attempt_at, null);
  t.same(
    event.attempts.map((a: { at: string; status: number }) => [a.at, a.status]),
    [
      [at(0), 500],
      [at(1), 500],
      [at(6), 500],
      [at(31), 200],
    ],
    'each attempt at the virtual time it fell due: the wait counts from the end of the failed one',
  );
  t.equal(new Set(r.received.map((x) => x.headers['x-webhook-event-id'])).size, 1, 'one event id');
});

t.test('an advance runs only the retries due within its span; the next advance goes on from there', async (t) => {
  const r = await failing(t, 3);
  const e = await emulator(t, { ...options, webhookUrl: r.url });
  await pay(e, { amount: 10, reference: 'steps' });

  const first = await e.api.post('/_payemu/clock/advance', { by: '3s' });
  t.same(first.body.ran, { 'webhook.retry': 1 }, 'to T0+3s: the retry at T0+1s only');
  t.equal(r.received.length, 2, 'the first attempt and the retry at T0+1s');
  let event = await eventOf(e, 'steps');
  t.equal(event.delivery_status, 'retrying');
  t.equal(event.next_attempt_at, at(6), 'the next one is due 5 s after the failed retry');

  const second = await e.api.post('/_payemu/clock/advance', { by: '3s' });
  t.same(second.body.items, [{ kind: 'webhook.retry', id: event.id, at: at(6) }], 'a retry due exactly at the end of the span runs in it');
  t.equal(r.received.length, 3);

  const third = await e.api.post('/_payemu/clock/advance', { by: '24s' });
  t.same(third.body.ran, {}, 'to T0+30s: nothing due');
  t.equal(r.received.length, 3);

  const fourth = await e.api.post('/_payemu/clock/advance', { to: at(31) });
  t.same(fourth.body.ran, { 'webhook.retry': 1 });
  event = await eventOf(e, 'steps');
  t.equal(event.delivery_status, 'delivered');
  t.same(
    event.attempts.map((a: { at: string }) => a.at),
    [at(0), at(1), at(6), at(31)],
  );
});

t.test('a receiver that hangs: the advance still finishes, each attempt cut off by the timeout', async (t) => {
  const held: ServerResponse[] = [];
  const r = await receiver(t, (_req, res) => held.push(res));
  t.teardown(() => {
    for (const res of held) res.end();
  });
  const e = await emulator(t, { ...options, webhookTimeout: 100, webhookUrl: r.url });
  await pay(e, { amount: 10, reference: 'hang' });
  const res = await e.api.post('/_payemu/clock/advance', { by: '1h' });
  t.equal(res.status, 200);
  t.same(res.body.ran, { 'webhook.retry': 3 });
  const event = await eventOf(e, 'hang');
  t.equal(event.delivery_status, 'failed', 'all four attempts timed out');
  t.same(
    event.attempts.map((a: { at: string; error: string }) => [a.at, a.error]),
    [0, 1, 6, 31].map((s) => [at(s), 'timed out after 100 ms']),
  );
  t.equal(r.received.length, 4);
});

t.test('retries of many events in one advance: the per-Source cap holds, and none is left behind', async (t) => {
  const count = MAX_IN_FLIGHT_PER_SOURCE + 6;
  const seen = new Set<string>();
  const held: ServerResponse[] = [];
  let holding = true;
  let full!: () => void;
  const saturated = new Promise<void>((resolve) => (full = resolve));
  const r = await receiver(t, (req, res) => {
    const id = String(req.headers['x-webhook-event-id']);
    if (!seen.has(id)) {
      // Each first attempt fails at once.
      seen.add(id);
      res.statusCode = 500;
      return void res.end();
    }
    // The retries are held until the test lets them go, then answered at once.
    if (!holding) return void res.end('ok');
    held.push(res);
    if (held.length === MAX_IN_FLIGHT_PER_SOURCE) full();
  });
  t.teardown(() => {
    for (const res of held) res.end();
  });
  const e = await emulator(t, { ...options, webhookUrl: r.url });
  for (let i = 0; i < count; i++) await pay(e, { amount: 1, reference: `many-${i}` });
  const advancing = e.api.post('/_payemu/clock/advance', { by: '2s' });
  await saturated;
  // An attempt is logged in progress before its request goes out: the other six have not started.
  const events = (await e.api.get('/_payemu/events?limit=1000')).body.events;
  const out = events.filter((ev: { attempts: { state: string }[] }) => ev.attempts.at(-1)?.state === 'in_progress');
  t.equal(out.length, MAX_IN_FLIGHT_PER_SOURCE, `${MAX_IN_FLIGHT_PER_SOURCE} retries in flight, the rest waiting for a slot`);
  holding = false;
  for (const res of held.splice(0)) res.end('ok');
  const res = await advancing;
  t.same(res.body.ran, { 'webhook.retry': count }, 'every retry ran in the advance, the waiting ones too');
  const delivered = (await e.api.get('/_payemu/events?delivery_status=delivered&limit=1000')).body.events;
  t.equal(delivered.length, count, 'every event delivered by its retry');
  t.equal(r.received.length, 2 * count);
});

t.test('retries and other due work run in one time order', async (t) => {
  const r = await failing(t, 3);
  const e = await emulator(t, { ...options, webhookUrl: r.url });
  // The card-saving payment's webhook fails three times; the next day's charge comes later.
  const { completed } = await pay(e, { amount: 10, reference: 'saved', save_payment_method: true });
  const schedule = await e.api.post('/v1/recurring-payments', {
    payment_method: completed.body.payment.payment_method,
    amount: 1,
    frequency: 'daily',
    start_date: '2027-03-02',
  });
  t.equal(schedule.status, 201);
  const res = await e.api.post('/_payemu/clock/advance', { by: '1d' });
  t.same(
    res.body.items.map((i: { kind: string; at: string }) => [i.kind, i.at]),
    [
      ['webhook.retry', at(1)],
      ['webhook.retry', at(6)],
      ['webhook.retry', at(31)],
      ['recurring.charge', '2027-03-02T00:00:00.000000Z'],
    ],
  );
  t.same(res.body.ran, { 'webhook.retry': 3, 'recurring.charge': 1 });
});
