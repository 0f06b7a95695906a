import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import t from 'tap';
import type { BusEvents } from '../src/bus/bus.js';
import { MAX_IN_FLIGHT_PER_SOURCE } from '../src/webhooks/lanes.js';
import { emulator, pay, type TestEmulator } from './helpers/emulator.js';
import { deadUrl, receiver } from './helpers/receiver.js';
import { streamReader } from './helpers/stream.js';

/** Resolves when `count` attempts of events matching `filter` have finished. */
function attempts(e: TestEmulator, count: number, filter: (a: BusEvents['webhook.attempt']) => boolean = () => true) {
  const seen: BusEvents['webhook.attempt'][] = [];
  return new Promise<BusEvents['webhook.attempt'][]>((resolve) => {
    const off = e.bus.on('webhook.attempt', (a) => {
      if (!filter(a)) return;
      seen.push(a);
      if (seen.length === count) {
        off();
        resolve(seen);
      }
    });
  });
}

const fast = { webhookBackoff: '0,0,0' };

t.test('payment.completed: headers, an independently verified signature and the exact SPEC.md body', async (t) => {
  const r = await receiver(t);
  const e = await emulator(t, { ...fast, webhookUrl: r.url });
  const got = r.next();
  await pay(e, { amount: 25.5, reference: 'wh-1', metadata: { order: 'A-1' } });
  const req = await got;
  t.equal(req.headers['content-type'], 'application/json');
  t.equal(req.headers['x-webhook-event'], 'payment.completed');
  t.match(req.headers['x-webhook-event-id'], /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const signature = String(req.headers['x-webhook-signature']);
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature);
  t.ok(match, signature);
  const expected = createHmac('sha256', 'whsec_payemu_acme').update(`${match![1]}.${req.body}`).digest('hex');
  t.equal(match![2], expected, 'HMAC-SHA256 of "<t>.<raw body>" with the Source secret');
  t.ok(Math.abs(Number(match![1]) - Date.now() / 1000) < 60, 't= is wall-clock time');
  const body = JSON.parse(req.body);
  t.same(body, {
    event: 'payment.completed',
    data: {
      payment_id: 1,
      reference: 'wh-1',
      amount: 25.5,
      currency: 'USD',
      status: 'PAID',
      card_last: '4242',
      card_brand: 'visa',
      metadata: { order: 'A-1' },
    },
  });
});

t.test('t= stays wall-clock time after the virtual clock moved', async (t) => {
  const r = await receiver(t);
  const e = await emulator(t, { ...fast, webhookUrl: r.url });
  await e.api.post('/_payemu/clock/advance', { by: '400d' });
  const got = r.next();
  await pay(e, { amount: 1 });
  const t0 = Number(/t=(\d+)/.exec(String((await got).headers['x-webhook-signature']))![1]);
  t.ok(Math.abs(t0 - Date.now() / 1000) < 60);
});

t.test('each payment event has its payload; a Source webhook_url in config wins', async (t) => {
  const r = await receiver(t);
  const e = await emulator(t, { ...fast, config: { sources: [{ slug: 'acme', webhook_url: r.url }] } });
  await pay(e, { amount: 10, reference: 'f' }, '4000000000000002');
  await pay(e, { amount: 10, reference: 'h', capture_method: 'manual' });
  await e.api.post('/v1/payments/h/capture', { amount: 8 });
  await pay(e, { amount: 10, reference: 'v', capture_method: 'manual' });
  await e.api.post('/v1/payments/v/void');
  await e.idle();
  const names = r.received.map((x) => x.headers['x-webhook-event']);
  t.same(names, ['payment.failed', 'payment.authorized', 'payment.captured', 'payment.completed', 'payment.authorized', 'payment.voided']);
  const bodies = r.received.map((x) => JSON.parse(x.body));
  t.match(bodies[0].data, { reference: 'f', status: 'FAILED', failure_code: 'insufficient_funds', failure_message: 'Your card has insufficient funds.' });
  t.match(bodies[2].data, { reference: 'h', status: 'PAID', amount: 8, authorized_amount: 10 });
  t.match(bodies[5].data, { reference: 'v', status: 'VOIDED', payment_id: 3 });
  const refunded = r.next();
  await e.api.post('/v1/payments/h/refunds', { amount: 3 });
  t.match(JSON.parse((await refunded).body), {
    event: 'payment.refunded',
    data: { reference: 'h', status: 'PARTIALLY_REFUNDED', refund_amount: 3, total_refunded: 3, refundable_amount: 5 },
  });
  t.equal((await e.globex.get('/v1/me')).body.data.attributes.webhook_configured, false, 'globex has no endpoint');
  t.equal((await e.api.get('/v1/me')).body.data.attributes.webhook_configured, true);
});

t.test('a receiver that always fails gets exactly 4 attempts; all are stored', async (t) => {
  const r = await receiver(t, (_req, res) => {
    res.statusCode = 500;
    res.end('no thanks');
  });
  const e = await emulator(t, { ...fast, webhookUrl: r.url });
  const done = attempts(e, 4);
  await pay(e, { amount: 10, reference: 'fail-4' });
  const seen = await done;
  t.same(
    seen.map((a) => a.event.delivery_status),
    ['retrying', 'retrying', 'retrying', 'failed'],
  );
  t.equal(r.received.length, 4);
  t.equal(new Set(r.received.map((x) => x.headers['x-webhook-event-id'])).size, 1, 'one event id for every attempt');
  const list = await e.api.get('/_payemu/events?reference=fail-4');
  const event = list.body.events[0];
  const one = await e.api.get(`/_payemu/events/${event.id}`);
  t.equal(one.body.delivery_status, 'failed');
  t.equal(one.body.attempts.length, 4);
  t.match(one.body.attempts[0], { status: 500, response_body: 'no thanks', error: 'HTTP 500' });
  t.type(one.body.attempts[0].duration_ms, 'number');
  t.match(one.body.attempts[0].at, /\.\d{6}Z$/);
});

t.test('failing, then succeeding: delivered on the second attempt', async (t) => {
  let calls = 0;
  const r = await receiver(t, (_req, res) => {
    res.statusCode = ++calls === 1 ? 503 : 204;
    res.end();
  });
  const e = await emulator(t, { ...fast, webhookUrl: r.url });
  await pay(e, { amount: 10, reference: 'second' });
  await e.idle();
  const [event] = e.events.list({ reference: 'second' });
  t.same(
    event!.attempts.map((a) => a.status),
    [503, 204],
  );
  t.equal(event!.delivery_status, 'delivered');
});

t.test('a receiver that is down: connection refused, retried, then failed', async (t) => {
  const e = await emulator(t, { ...fast, webhookUrl: await deadUrl() });
  await pay(e, { amount: 10, reference: 'down' });
  await e.idle();
  const [event] = e.events.list({ reference: 'down' });
  t.equal(event!.delivery_status, 'failed');
  t.equal(event!.attempts.length, 4);
  t.match(event!.attempts[0]!.error, /ECONNREFUSED/);
  t.equal(event!.attempts[0]!.status, null);
});

t.test('a slow receiver times out and the attempt says so', async (t) => {
  const held: import('node:http').ServerResponse[] = [];
  const r = await receiver(t, (_req, res) => held.push(res));
  const e = await emulator(t, { webhookBackoff: '0,0,0', webhookTimeout: 200, webhookUrl: r.url });
  const done = attempts(e, 4);
  await pay(e, { amount: 10 });
  const seen = await done;
  t.match(seen[0]!.attempt?.error, /timed out after 200 ms/);
  t.equal(seen[3]!.event.delivery_status, 'failed');
  for (const res of held) res.end();
});

t.test('retries are due on the virtual clock: advancing it sends them at once', async (t) => {
  let calls = 0;
  const r = await receiver(t, (_req, res) => {
    res.statusCode = ++calls === 1 ? 500 : 200;
    res.end();
  });
  const e = await emulator(t, { webhookBackoff: '1h,1h,1h', webhookUrl: r.url });
  await pay(e, { amount: 10, reference: 'later' });
  await e.idle(); // the retry is due in an hour: not waited for
  t.equal(e.events.list({ reference: 'later' })[0]!.delivery_status, 'retrying');
  const listed = (await e.api.get('/_payemu/events?delivery_status=retrying')).body.events;
  t.equal(listed.length, 1);
  t.ok(Date.parse(listed[0].next_attempt_at) - Date.parse(listed[0].attempts[0].at) >= 3_600_000);
  await e.api.post('/_payemu/clock/advance', { by: '1h' });
  await e.idle();
  t.equal(e.events.list({ reference: 'later' })[0]!.delivery_status, 'delivered');
});

t.test('pending retries survive a restart', async (t) => {
  const dir = t.testdir();
  let calls = 0;
  const r = await receiver(t, (_req, res) => {
    res.statusCode = ++calls === 1 ? 500 : 200;
    res.end();
  });
  const e1 = await emulator(t, { inMemory: false, dataDir: dir, webhookBackoff: '1h,1h,1h', webhookUrl: r.url });
  const first = attempts(e1, 1);
  await pay(e1, { amount: 10, reference: 'survivor' });
  await first;
  await e1.close();

  const e2 = await emulator(t, { inMemory: false, dataDir: dir, webhookBackoff: '1h,1h,1h', webhookUrl: r.url });
  const pending = (await e2.api.get('/_payemu/events?reference=survivor')).body.events[0];
  t.equal(pending.delivery_status, 'retrying');
  const second = attempts(e2, 1);
  await e2.api.post('/_payemu/clock/advance', { by: '61m' });
  const [done] = await second;
  t.equal(done!.event.delivery_status, 'delivered');
  t.equal(done!.event.attempts?.length, 2);
  t.equal(r.received.length, 2);
});

t.test('an event with no endpoint is recorded as no_endpoint; once one is configured, resend delivers it with the same id', async (t) => {
  const r = await receiver(t);
  const dir = t.testdir({ 'payemu.config.json': JSON.stringify({ sources: [{ slug: 'acme' }] }) });
  const file = `${dir}/payemu.config.json`;
  const e = await emulator(t, { ...fast, config: file });
  const none = attempts(e, 1);
  await pay(e, { amount: 10, reference: 'quiet' });
  t.equal((await none)[0]!.event.delivery_status, 'no_endpoint');
  const event = (await e.api.get('/_payemu/events?delivery_status=no_endpoint')).body.events[0];
  t.equal(event.reference, 'quiet');

  const reloaded = new Promise((resolve) => e.bus.on('config.reloaded', resolve));
  fs.writeFileSync(file, JSON.stringify({ sources: [{ slug: 'acme', webhook_url: r.url }] }));
  await reloaded;
  const delivered = r.next();
  const res = await e.api.post(`/_payemu/events/${event.id}/resend`);
  t.equal(res.status, 200);
  t.equal(res.body.id, event.id);
  t.equal((await delivered).headers['x-webhook-event-id'], event.id, 'the same event id');
});

t.test('the event log: filters, newest first, scoped to the key, 404s', async (t) => {
  const e = await emulator(t, { ...fast });
  await pay(e, { amount: 10, reference: 'one' });
  await pay(e, { amount: 10, reference: 'two' }, '4000000000000002');
  await pay(e, { amount: 10, reference: 'three' }, '4242424242424242', e.globex);
  const all = (await e.api.get('/_payemu/events')).body.events;
  t.same(
    all.map((x: { reference: string }) => x.reference),
    ['two', 'one'],
  );
  t.same(
    (await e.api.get('/_payemu/events?event=payment.failed')).body.events.map((x: { reference: string }) => x.reference),
    ['two'],
  );
  t.same((await e.api.get('/_payemu/events?reference=one')).body.events.length, 1);
  t.equal((await e.api.get('/_payemu/events?event=nope')).status, 422);
  t.equal((await e.live.get('/_payemu/events')).body.events.length, 0);
  t.equal((await e.globex.get(`/_payemu/events/${all[0].id}`)).status, 404);
  t.equal((await e.api.get('/_payemu/events/nope')).status, 404);
  t.equal((await e.api.post('/_payemu/events/nope/resend')).status, 404);
});

t.test('the event stream sends each event and each attempt as it happens', async (t) => {
  const r = await receiver(t);
  const e = await emulator(t, { ...fast, webhookUrl: r.url });
  const controller = new AbortController();
  const res = await fetch(`${e.url}/_payemu/events/stream?key=${e.keys.test}`, { signal: controller.signal });
  t.equal(res.headers.get('content-type'), 'text/event-stream');
  const stream = streamReader(res);
  const until = stream.until;
  await until(/payemu event stream/);
  await pay(e, { amount: 10, reference: 'streamed' });
  await until(/event: attempt\ndata: .*delivered/);
  t.match(stream.text(), /event: event\ndata: \{"id":"[0-9a-f-]+","event":"payment.completed"/);
  controller.abort();
  t.equal((await fetch(`${e.url}/_payemu/events/stream`)).status, 401, 'needs a key');
});

t.test('a dead receiver never slows the API: requests finish while deliveries hang', async (t) => {
  const held: import('node:http').ServerResponse[] = [];
  const r = await receiver(t, (_req, res) => held.push(res));
  const e = await emulator(t, { webhookBackoff: '0,0,0', webhookUrl: r.url });
  // 20 payments whose deliveries all hang in the receiver...
  for (let i = 0; i < 20; i++) await pay(e, { amount: 1, reference: `hang-${i}` });
  // ...and the API still answers everything at once: no attempt has finished yet.
  const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => e.api.post('/v1/sessions', { amount: 1, reference: `more-${i}` })));
  t.ok(answers.every((a) => a.status === 201));
  t.equal((await e.api.get('/_payemu/events?delivery_status=pending')).body.events.length, 20, 'every delivery still in flight');
  for (const res of held) res.end();
});

t.test('a clock advance of many charges: at most 64 deliveries in flight per Source, in event order, every one delivered', async (t) => {
  let open = 0; // acme's requests not answered yet
  let most = 0;
  // Answered at once until the advance: an advance awaits the attempts already out when it begins.
  let holding = false;
  const held: import('node:http').ServerResponse[] = [];
  let full!: () => void;
  const saturated = new Promise<void>((resolve) => (full = resolve));
  const r = await receiver(t, (req, res) => {
    if (JSON.parse(req.body).data.currency === 'USD') {
      most = Math.max(most, ++open);
      res.on('finish', () => open--);
    }
    if (!holding) return void res.end('ok');
    held.push(res);
    if (held.length === MAX_IN_FLIGHT_PER_SOURCE) full();
  });
  const e = await emulator(t, { ...fast, webhookUrl: r.url, clockStart: '2027-01-01T09:00:00Z', freezeClock: true });
  const raised: string[] = [];
  e.bus.on('domain', (ev) => raised.push(ev.id));
  const saved = attempts(e, 1);
  const { completed } = await pay(e, { amount: 1, save_payment_method: true });
  await saved;
  await e.api.post('/v1/recurring-payments', {
    payment_method: completed.body.payment.payment_method,
    amount: 1,
    frequency: 'daily',
    start_date: '2027-01-02',
  });
  holding = true;
  // The advance raises the events and returns: it does not wait for their first attempts.
  await e.api.post('/_payemu/clock/advance', { by: '60d' });
  t.equal(raised.length, 121, 'the payment that saved the card, then a payment.completed and a recurring.charged a day');
  const all = attempts(e, 121);
  await saturated;
  t.equal(held.length, MAX_IN_FLIGHT_PER_SOURCE);
  // The last event has not gone out: it waits for a slot, so it is not in flight and a resend
  // of it is taken (an event in flight would be a 409).
  t.equal((await e.api.post(`/_payemu/events/${raised[120]}/resend`, {})).status, 200, 'the newest event is waiting, not in flight');
  // Another Source's delivery does not wait behind acme's.
  const next = r.next();
  await pay(e, { amount: 2, reference: 'globex-meanwhile' }, '4242424242424242', e.globex);
  t.equal(JSON.parse((await next).body).data.reference, 'globex-meanwhile', "globex's event goes out while acme's 64 are held");
  // Answer the held ones, and everything after at once.
  holding = false;
  for (const res of held) res.end('ok');
  const done = await all;
  t.ok(
    done.every((a) => a.event.delivery_status === 'delivered'),
    'every event delivered',
  );
  t.ok(most <= MAX_IN_FLIGHT_PER_SOURCE, `never more than ${MAX_IN_FLIGHT_PER_SOURCE} at once (${most})`);
  const firstOut = r.received.slice(0, MAX_IN_FLIGHT_PER_SOURCE).map((req) => String(req.headers['x-webhook-event-id']));
  t.same(firstOut.sort(), raised.slice(0, MAX_IN_FLIGHT_PER_SOURCE).sort(), 'the first to go out are the oldest events');
});

t.test('--strict-webhook-urls refuses a loopback endpoint without retrying', async (t) => {
  const r = await receiver(t);
  const e = await emulator(t, { ...fast, webhookUrl: r.url, strictWebhookUrls: true });
  const done = attempts(e, 1);
  await pay(e, { amount: 10 });
  const [a] = await done;
  t.equal(a!.event.delivery_status, 'failed');
  t.match(a!.attempt?.error, /private or reserved address/);
  t.equal(r.received.length, 0);
});
