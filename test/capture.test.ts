import t from 'tap';
import { assertError, emulator, pay, type TestEmulator } from './helpers/emulator.js';

async function held(e: TestEmulator, reference: string, amount = 100) {
  const { completed } = await pay(e, { amount, reference, capture_method: 'manual' });
  if (completed.body.payment.status !== 'AUTHORIZED') throw new Error(completed.text);
  return completed.body.payment;
}

function collect(e: TestEmulator) {
  const events: { name: string; data: Record<string, unknown> }[] = [];
  e.bus.on('domain', (event) => events.push({ name: event.name, data: event.data }));
  return events;
}

t.test('a manual-capture checkout ends AUTHORIZED with payment.authorized', async (t) => {
  const e = await emulator(t);
  const events = collect(e);
  await held(e, 'hold-1');
  const payment = await e.api.get('/v1/payments/hold-1');
  t.match(payment.body.data.attributes, { status: 'AUTHORIZED', paid: false, amount: '100.00', captured_at: null });
  t.same(
    events.map((ev) => ev.name),
    ['payment.authorized'],
  );
});

t.test('capture the full hold: PAID, captured_at, integer id, meta.message, captured then completed', async (t) => {
  const e = await emulator(t);
  const hold = await held(e, 'hold-2');
  const events = collect(e);
  const res = await e.api.post('/v1/payments/hold-2/capture', {});
  t.equal(res.status, 200);
  t.equal(res.body.data.id, hold.id);
  t.type(res.body.data.id, 'number');
  t.same(Object.keys(res.body.data.attributes).sort(), ['amount', 'captured_at', 'reference', 'status']);
  t.match(res.body.data.attributes, { reference: 'hold-2', amount: '100.00', status: 'PAID' });
  t.match(res.body.data.attributes.captured_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  t.type(res.body.meta.message, 'string');
  t.same(
    events.map((ev) => ev.name),
    ['payment.captured', 'payment.completed'],
  );
  t.match(events[1]!.data, { payment_id: hold.id, reference: 'hold-2', amount: 100, status: 'PAID' });
  const read = await e.api.get('/v1/payments/hold-2');
  t.match(read.body.data.attributes, { status: 'PAID', paid: true });
});

t.test('capture a lesser amount: it becomes the amount and the base for refunds', async (t) => {
  const e = await emulator(t);
  await held(e, 'hold-3', 100);
  const res = await e.api.post('/v1/payments/hold-3/capture', { amount: 60.5 });
  t.match(res.body.data.attributes, { amount: '60.50', status: 'PAID' });
  t.equal((await e.api.get('/v1/payments/hold-3')).body.data.attributes.amount, '60.50');
  assertError(t, await e.api.post('/v1/payments/hold-3/refunds', { amount: 60.51 }), 422, /60\.50/);
  t.equal((await e.api.post('/v1/payments/hold-3/refunds', { amount: 60.5 })).body.meta.payment.status, 'REFUNDED');
});

t.test('capture refusals change nothing', async (t) => {
  const e = await emulator(t);
  await held(e, 'hold-4', 100);
  const above = await e.api.post('/v1/payments/hold-4/capture', { amount: 100.01 });
  assertError(t, above, 422, /exceeds the authorized amount 100\.00/);
  t.ok(above.body.errors[0].meta.errors.amount);
  for (const amount of [0, 0.001, -1, '50']) assertError(t, await e.api.post('/v1/payments/hold-4/capture', { amount }), 422);
  assertError(t, await e.api.post('/v1/payments/nope/capture', {}), 404);
  t.equal((await e.api.get('/v1/payments/hold-4')).body.data.attributes.status, 'AUTHORIZED');

  await pay(e, { amount: 10, reference: 'paid-now' });
  assertError(t, await e.api.post('/v1/payments/paid-now/capture', {}), 422, /status is PAID/);
  const failed = await pay(e, { amount: 10, reference: 'failed-now', capture_method: 'manual' }, '4000000000000002');
  t.equal(failed.completed.body.payment.status, 'FAILED');
  assertError(t, await e.api.post('/v1/payments/failed-now/capture', {}), 422, /status is FAILED/);
  await e.api.post('/v1/payments/hold-4/capture', {});
  assertError(t, await e.api.post('/v1/payments/hold-4/capture', {}), 422, /status is PAID/); // no second capture
});

t.test('void releases a hold; only AUTHORIZED', async (t) => {
  const e = await emulator(t);
  const hold = await held(e, 'hold-5');
  const events = collect(e);
  const res = await e.api.post('/v1/payments/hold-5/void');
  t.equal(res.status, 200);
  t.equal(res.body.data.id, hold.id);
  t.same(Object.keys(res.body.data.attributes).sort(), ['amount', 'reference', 'status']);
  t.match(res.body.data.attributes, { reference: 'hold-5', amount: '100.00', status: 'VOIDED' });
  t.type(res.body.meta.message, 'string');
  t.same(
    events.map((ev) => ev.name),
    ['payment.voided'],
  );
  assertError(t, await e.api.post('/v1/payments/hold-5/void'), 422, /status is VOIDED/);
  assertError(t, await e.api.post('/v1/payments/hold-5/capture', {}), 422, /status is VOIDED/);
  assertError(t, await e.api.post('/v1/payments/nope/void'), 404);
  await pay(e, { amount: 10, reference: 'paid-5' });
  assertError(t, await e.api.post('/v1/payments/paid-5/void'), 422);
  t.match((await e.api.get('/v1/payments/hold-5')).body.data.attributes, { status: 'VOIDED', paid: false });
  t.equal((await e.api.post('/v1/sessions', { amount: 10, reference: 'hold-5' })).status, 201, 'a voided reference can be paid again');
});

t.test('authorizations expire after 7 days on the virtual clock, without a webhook', async (t) => {
  const e = await emulator(t);
  await held(e, 'hold-6');
  const events = collect(e);
  const early = await e.api.post('/_payemu/clock/advance', { by: '6d' });
  t.notOk(early.body.ran['payment.authorization_expired']);
  const res = await e.api.post('/_payemu/clock/advance', { by: '1d' });
  t.equal(res.body.ran['payment.authorization_expired'], 1);
  t.match((await e.api.get('/v1/payments/hold-6')).body.data.attributes, { status: 'EXPIRED', paid: false });
  assertError(t, await e.api.post('/v1/payments/hold-6/capture', {}), 422, /status is EXPIRED/);
  t.same(events, [], 'no event');
  t.equal((await e.api.post('/v1/sessions', { amount: 10, reference: 'hold-6' })).status, 201, 'an expired reference can be paid again');
});

t.test("another Source's or mode's payment cannot be captured or voided", async (t) => {
  const e = await emulator(t);
  await held(e, 'hold-7');
  assertError(t, await e.globex.post('/v1/payments/hold-7/capture', {}), 404);
  assertError(t, await e.live.post('/v1/payments/hold-7/void'), 404);
  t.equal((await e.api.get('/v1/payments/hold-7')).body.data.attributes.status, 'AUTHORIZED');
});
