import fs from 'node:fs';
import t from 'tap';
import { EVENT_NAMES } from '../src/catalogue.js';
import { loadFixtures, TRIGGERS_DIR } from '../src/control/triggers/fixtures.js';
import { parseSet } from '../src/control/triggers/template.js';
import { assertError, emulator } from './helpers/emulator.js';

t.test('every event has a trigger fixture and every fixture an event', async (t) => {
  const { fixtures } = loadFixtures();
  t.same([...fixtures.keys()].sort(), [...EVENT_NAMES].sort());
  const files = fs.readdirSync(TRIGGERS_DIR).filter((f) => f !== '_defaults.json');
  t.same(files.sort(), EVENT_NAMES.map((e) => `${e}.json`).sort());
});

t.test('each trigger makes its event happen through real state changes', async (t) => {
  const e = await emulator(t, { clockStart: '2027-05-01T12:00:00Z', freezeClock: true });
  for (const event of EVENT_NAMES) {
    const seen: string[] = [];
    const off = e.bus.on('domain', (d) => seen.push(d.name));
    const res = await e.api.post('/_payemu/trigger', { event });
    off();
    t.equal(res.status, 200, `${event}: ${res.text.slice(0, 200)}`);
    t.equal(res.body.event, event);
    t.match(res.body.event_id, /^[0-9a-f-]{36}$/, `${event} happened`);
    t.ok(seen.includes(event));
    const stored = await e.api.get(`/_payemu/events/${res.body.event_id}`);
    t.equal(stored.body.event, event, 'the event is in the log');
  }
});

t.test('--set style data overrides amount, currency, reference, metadata and email', async (t) => {
  const e = await emulator(t);
  const res = await e.api.post('/_payemu/trigger', {
    event: 'payment.completed',
    data: parseSet(['amount=12.5', 'currency=EUR', 'reference=order-77', 'metadata.order=77', 'customer_email=bob@example.com']),
  });
  t.equal(res.status, 200);
  const event = await e.api.get(`/_payemu/events/${res.body.event_id}`);
  t.match(event.body.payload.data, { amount: 12.5, currency: 'EUR', reference: 'order-77', metadata: { order: 77, source: 'payemu trigger' } });
  t.equal((await e.api.get('/v1/payments/order-77')).body.data.attributes.customer_email, 'bob@example.com');
  // A step the API refuses says which step and why; nothing further runs.
  const again = await e.api.post('/_payemu/trigger', { event: 'payment.completed', data: { reference: 'order-77' } });
  assertError(t, again, 409, /step "session"/);
});

t.test('unknown events and Sources are 422s that list the valid ones', async (t) => {
  const e = await emulator(t);
  assertError(t, await e.api.post('/_payemu/trigger', { event: 'payment.exploded' }), 422, /payment\.completed/);
  assertError(t, await e.api.post('/_payemu/trigger', { event: 'payment.completed', source: 'nope' }), 422, /acme, globex/);
  const globex = await e.api.post('/_payemu/trigger', { event: 'payment.completed', source: 'globex' });
  t.equal(globex.body.source, 'globex');
  t.equal((await e.globex.get(`/_payemu/events/${globex.body.event_id}`)).status, 200);
});

t.test('a data key the event never reads is a 422 naming it and the keys it takes, and nothing happens', async (t) => {
  const e = await emulator(t);
  const refused = await e.api.post('/_payemu/trigger', { event: 'payment.completed', data: { amout: 12, reference: 'typo-1' } });
  assertError(t, refused, 422, /"amout".*Its keys: amount/);
  t.ok(refused.body.errors[0].meta.errors['data.amout'], 'the field is named');
  t.equal((await e.api.get('/v1/payments/typo-1')).status, 404, 'no payment was made');
  const card = await e.api.post('/_payemu/trigger', { event: 'payment.completed', data: { cards: { nope: '4242424242424242' } } });
  assertError(t, card, 422, /"cards\.nope"/);
});

t.test('a step that fails with a 5xx after earlier steps ran is a 422 saying what ran, never a 5xx; alone it stays a 5xx', async (t) => {
  const e = await emulator(t, { clockStart: '2027-05-01T12:00:00Z', freezeClock: true });
  const fault = await e.api.post('/_payemu/faults', { method: 'POST', path: '/v1/payments/*/refunds', status: 500 });
  t.equal(fault.status, 201);
  // The session and its payment were made; the refund step met the fault.
  const refused = await e.api.post('/_payemu/trigger', { event: 'payment.refunded' });
  assertError(t, refused, 422, /step "refund" .* was refused: .*The steps before it ran, and what they made stays: session cs_\w+, payment \d+\./);
  t.equal((await e.api.get('/v1/payments')).body.meta.total, 1, 'the payment the earlier steps made is there');
  // A retry with the same key is answered the same, and makes no second payment.
  const key = { 'Idempotency-Key': 'refund-trigger' };
  const first = await e.api.post('/_payemu/trigger', { event: 'payment.refunded' }, key);
  const again = await e.api.post('/_payemu/trigger', { event: 'payment.refunded' }, key);
  t.equal(first.status, 422);
  t.equal(again.text, first.text);
  t.equal(again.headers.get('idempotent-replayed'), 'true');
  t.equal((await e.api.get('/v1/payments')).body.meta.total, 2);

  // A first step that fails has done nothing: its 5xx is passed on.
  await e.api.post('/_payemu/faults', { method: 'POST', path: '/v1/sessions', status: 500 });
  assertError(t, await e.api.post('/_payemu/trigger', { event: 'payment.completed' }), 500, /step "session"/);
});

t.test('parseSet', async (t) => {
  t.same(parseSet(['a=1', 'b=x', 'c.d=true', 'c.e="1"']), { a: 1, b: 'x', c: { d: true, e: '1' } });
  t.throws(() => parseSet(['nope']));
  t.throws(() => parseSet(['__proto__.x=1']));
});
