import t from 'tap';
import { assertError, emulator, savedCard } from './helpers/emulator.js';

t.test('a charge on a saved card is a payment: 201 type charges, listed, refundable, payment.completed', async (t) => {
  const e = await emulator(t);
  const pm = await savedCard(e);
  const events: string[] = [];
  e.bus.on('domain', (ev) => events.push(ev.name));
  const res = await e.api.post('/v1/charges', { payment_method: pm, amount: 12.34, reference: 'charge-1', description: 'Top-up', metadata: { a: 1 } });
  t.equal(res.status, 201);
  t.match(res.body.data.id, /^ch_[0-9A-Za-z]{24}$/);
  t.equal(res.body.data.type, 'charges');
  t.match(res.body.data.attributes, {
    reference: 'charge-1',
    amount: '12.34',
    currency: 'USD',
    status: 'PAID',
    paid: true,
    payment_method: pm,
    failure_code: null,
    failure_message: null,
  });
  t.type(res.body.data.attributes.payment_id, 'number');
  t.same(events, ['payment.completed']);
  const read = await e.api.get(`/v1/charges/${res.body.data.id}`);
  t.same(read.body, res.body);
  t.match((await e.api.get('/v1/payments/charge-1')).body.data.attributes, {
    status: 'PAID',
    card_last: '4242',
    payment_method: pm,
    customer_email: 'ada@example.com',
  });
  t.equal((await e.api.post('/v1/payments/charge-1/refunds', { amount: 2 })).status, 201);
  t.equal((await e.api.get('/v1/payments?filter[status]=PARTIALLY_REFUNDED')).body.data[0].attributes.reference, 'charge-1');
});

t.test('the 0341 card is declined off-session: 201 FAILED with payment.failed', async (t) => {
  const e = await emulator(t);
  const pm = await savedCard(e, '4000000000000341');
  const res = await e.api.post('/v1/charges', { payment_method: pm, amount: 5 });
  t.equal(res.status, 201);
  t.match(res.body.data.attributes, { status: 'FAILED', paid: false, failure_code: 'card_declined' });
  t.match(res.body.data.attributes.reference, /^pay_/);
});

t.test('charge refusals', async (t) => {
  const e = await emulator(t);
  const pm = await savedCard(e);
  assertError(t, await e.api.post('/v1/charges', { amount: 5 }), 422);
  assertError(t, await e.api.post('/v1/charges', { payment_method: pm }), 422);
  assertError(t, await e.api.post('/v1/charges', { payment_method: 'pm_x', amount: 5 }), 422);
  const unknown = await e.api.post('/v1/charges', { payment_method: `pm_${'A'.repeat(24)}`, amount: 5 });
  assertError(t, unknown, 422);
  t.ok(unknown.body.errors[0].meta.errors.payment_method);
  assertError(t, await e.globex.post('/v1/charges', { payment_method: pm, amount: 5 }), 422, /not a card saved by this Source/);
  assertError(t, await e.live.post('/v1/charges', { payment_method: pm, amount: 5 }), 422);
  await e.api.post('/v1/charges', { payment_method: pm, amount: 5, reference: 'taken' });
  assertError(t, await e.api.post('/v1/charges', { payment_method: pm, amount: 5, reference: 'taken' }), 409);
  assertError(t, await e.api.get('/v1/charges/ch_nope'), 404);
});
