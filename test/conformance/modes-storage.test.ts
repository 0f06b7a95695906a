import t from 'tap';
import { assertError, emulator, pay } from '../helpers/emulator.js';

// payemu's modes, data and storage: test and live data isolated per Source and mode; references
// unique across a merchant's Sources within a mode, with a 409 that reveals nothing; one virtual
// clock; live mode's cards; a restart with the same directory continues; money in minor units
// (more than two decimals, as the JSON text writes the number, is a 422). Each test is titled
// with the sentence it checks.

t.test('Test and live data are fully isolated per Source and per mode: a key sees only its own Source data in its own mode', async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 5, reference: 'iso-test' });
  await pay(e, { amount: 5, reference: 'iso-live' }, '4012888888881881', e.live);
  assertError(t, await e.live.get('/v1/payments/iso-test'), 404);
  assertError(t, await e.api.get('/v1/payments/iso-live'), 404);
  assertError(t, await e.globex.get('/v1/payments/iso-test'), 404, undefined);
  t.same(
    (await e.api.get('/v1/payments')).body.data.map((p: any) => p.attributes.reference),
    ['iso-test'],
  );
  t.same(
    (await e.live.get('/v1/payments')).body.data.map((p: any) => p.attributes.reference),
    ['iso-live'],
  );
  t.equal((await e.globex.get('/v1/payments')).body.meta.total, 0);
  assertError(t, await e.globex.post('/v1/payments/iso-test/refunds', { amount: 1 }), 404);
});

t.test(
  'Payment references are unique across the Sources of one merchant within a mode; that 409 reveals nothing of the other Source payment; test and live references are separate',
  async (t) => {
    const e = await emulator(t);
    await pay(e, { amount: 5, reference: 'shared-ref', customer_email: 'secret@example.com' });
    const conflict = await e.globex.post('/v1/sessions', { amount: 5, reference: 'shared-ref' });
    assertError(t, conflict, 409);
    t.notMatch(conflict.text, /secret@example.com|5\.00|acme|PAID/, 'no amount, email, status or Source of the other payment');
    t.equal((await e.live.post('/v1/sessions', { amount: 5, reference: 'shared-ref' })).status, 201, 'live has its own references');
  },
);

t.test('One virtual clock serves the whole emulator, every Source and mode', async (t) => {
  const e = await emulator(t, { clockStart: '2027-01-10T09:00:00Z', freezeClock: true });
  await e.globex.post('/_payemu/clock/advance', { by: '2d' });
  for (const as of [e.api, e.live, e.globex]) t.equal((await as.get('/_payemu/clock')).body.now, '2027-01-12T09:00:00.000000Z');
});

t.test('A restart with the same directory continues where it stopped: payments, schedules, events and the clock', async (t) => {
  const dir = t.testdir();
  const first = await emulator(t, { inMemory: false, dataDir: dir, clockStart: '2027-01-10T09:00:00Z', freezeClock: true });
  const pm = (await pay(first, { amount: 7, reference: 'durable', save_payment_method: true })).completed.body.payment.payment_method;
  await first.api.post('/v1/recurring-payments', { payment_method: pm, amount: 3, frequency: 'daily', reference: 'durable-sub', start_date: '2027-01-12' });
  await first.api.post('/_payemu/clock/advance', { by: '1d' });
  await first.close();
  const second = await emulator(t, { inMemory: false, dataDir: dir, freezeClock: true });
  t.equal((await second.api.get('/_payemu/clock')).body.now, '2027-01-11T09:00:00.000000Z', 'the clock');
  t.equal((await second.api.get('/v1/payments/durable')).body.data.attributes.status, 'PAID', 'the payment');
  t.equal((await second.api.get('/v1/recurring-payments/durable-sub')).body.data.attributes.next_billing_date, '2027-01-12', 'the schedule');
  t.equal((await second.api.get('/_payemu/events?reference=durable')).body.events.length, 1, 'the events');
  await second.api.post('/_payemu/clock/advance', { by: '1d' });
  t.equal((await second.api.get('/v1/payments/durable-sub-0001')).body.data.attributes.status, 'PAID', 'and the schedule carries on');
});

t.test('Money is held in integer minor units inside; request amounts with more than two decimals, as the JSON text writes them, are a 422', async (t) => {
  const e = await emulator(t);
  for (const [path, body] of [
    ['/v1/sessions', { amount: 10.001 }],
    ['/v1/payment-links', { title: 'x', amount: 1.999 }],
    ['/v1/tax/calculate', { amount: 0.001 }],
  ] as const) {
    const res = await e.api.post(path, body);
    assertError(t, res, 422);
    t.ok(res.body.errors[0].meta.errors.amount, `${path}: names amount`);
  }
  // As written: 0.3000000000000000001 parses to 0.3, and is still a 422; trailing zeros and
  // exponents are fine when the exact value has two decimals at most.
  for (const literal of ['0.30000001', '1.005', '0.3000000000000000001']) {
    const res = await e.api.post('/v1/sessions', `{"amount": ${literal}}`);
    assertError(t, res, 422);
    t.same(res.body.errors[0].meta.errors.amount, ['The amount field must have at most 2 decimal places.'], literal);
  }
  for (const [literal, amount] of [
    ['12.50', 12.5],
    ['12.5', 12.5],
    ['12.500', 12.5],
    ['1e2', 100],
    ['1.0e-2', 0.01],
  ] as const) {
    const res = await e.api.post('/v1/sessions', `{"amount": ${literal}}`);
    t.equal(res.status, 201, literal);
    t.equal(res.body.data.attributes.amount, amount, `${literal} is ${amount}`);
  }
  await pay(e, { amount: 0.1, reference: 'cents' });
  await e.api.post('/v1/payments/cents/refunds', { amount: 0.07 });
  t.match(
    (await e.api.get('/v1/payments/cents/refunds')).body.meta.payment,
    { total_refunded: '0.07', refundable_amount: '0.03' },
    '0.10 − 0.07 is exactly 0.03',
  );
});
