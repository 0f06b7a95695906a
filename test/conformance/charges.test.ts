import t from 'tap';
import { assertError, emulator, pay } from '../helpers/emulator.js';

// payemu's charges: `POST /v1/charges` charges a saved card off-session, a charge is a payment
// (listed, refundable, integer payment_id, reference rules), `GET /v1/charges/{id}`. Each test is
// titled with the sentence it checks. One emulator serves the file; tests keep apart by reference.

const e = await emulator(t, { clockStart: '2027-01-10T09:00:00Z', freezeClock: true });
const events: { name: string; data: Record<string, any> }[] = [];
e.bus.on('domain', (ev) => events.push({ name: ev.name, data: ev.data }));
const saved = async (card = '4242424242424242', as = e.api) =>
  (await pay(e, { amount: 1, save_payment_method: true }, card, as)).completed.body.payment.payment_method as string;
const pm = await saved();

t.test(
  'POST /v1/charges answers 201 with type charges (reference, amount, currency, status, paid, payment_method, failure_code, failure_message, created_at); id ch_ + 24 base62',
  async (t) => {
    const res = await e.api.post('/v1/charges', { payment_method: pm, amount: 12.34, reference: 'ch-1', description: 'Top-up', metadata: { a: 1 } });
    t.equal(res.status, 201);
    t.match(res.body.data.id, /^ch_[0-9A-Za-z]{24}$/);
    t.equal(res.body.data.type, 'charges');
    t.match(res.body.data.attributes, {
      reference: 'ch-1',
      amount: '12.34',
      currency: 'USD',
      status: 'PAID',
      paid: true,
      payment_method: pm,
      failure_code: null,
      failure_message: null,
      created_at: '2027-01-10T09:00:00.000000Z',
    });
    const read = await e.api.get(`/v1/charges/${res.body.data.id}`);
    t.equal(read.status, 200, 'GET /v1/charges/{id} retrieves one');
    t.same(read.body.data.attributes, res.body.data.attributes);
  },
);

t.test('A charge is a payment: listed in GET /v1/payments, can be refunded, has an integer payment_id; it emits payment.completed', async (t) => {
  await e.api.post('/v1/charges', { payment_method: pm, amount: 5, reference: 'ch-pay' });
  const listed = await e.api.get('/v1/payments?page[size]=100');
  t.ok(
    listed.body.data.some((p: any) => p.attributes.reference === 'ch-pay'),
    'listed',
  );
  t.equal((await e.api.post('/v1/payments/ch-pay/refunds', { amount: 5 })).status, 201, 'refunded');
  const completed = events.find((x) => x.name === 'payment.completed' && x.data.reference === 'ch-pay')!;
  t.ok(Number.isInteger(completed.data.payment_id));
});

t.test('A declined charge too answers 201 (status FAILED, paid false) and emits payment.failed; 4000 0000 0000 0341 is declined off-session', async (t) => {
  const bad = await saved('4000000000000341');
  const res = await e.api.post('/v1/charges', { payment_method: bad, amount: 5, reference: 'ch-fail' });
  t.equal(res.status, 201);
  t.match(res.body.data.attributes, { status: 'FAILED', paid: false, failure_code: 'card_declined', failure_message: String });
  t.same(
    events.filter((x) => x.data.reference === 'ch-fail').map((x) => x.name),
    ['payment.failed'],
  );
});

t.test('A charge shares the reference rules: a paid reference is a 409', async (t) => {
  await pay(e, { amount: 1, reference: 'ch-taken' });
  assertError(t, await e.api.post('/v1/charges', { payment_method: pm, amount: 1, reference: 'ch-taken' }), 409);
  assertError(
    t,
    await e.globex.post('/v1/charges', { payment_method: await saved('4242424242424242', e.globex), amount: 1, reference: 'ch-1' }),
    409,
    undefined,
  );
});

t.test(
  'charge refusals: an unknown or another scope’s payment_method, a missing amount, more than two decimals are 422s; an unknown charge is a 404',
  async (t) => {
    assertError(t, await e.api.post('/v1/charges', { payment_method: 'pm_nope', amount: 1 }), 422);
    assertError(t, await e.live.post('/v1/charges', { payment_method: pm, amount: 1 }), 422);
    assertError(t, await e.api.post('/v1/charges', { payment_method: pm }), 422);
    assertError(t, await e.api.post('/v1/charges', { payment_method: pm, amount: 1.001 }), 422);
    assertError(t, await e.api.get('/v1/charges/ch_nope'), 404);
  },
);
