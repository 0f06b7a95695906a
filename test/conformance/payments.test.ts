import t from 'tap';
import { assertError, emulator, pay } from '../helpers/emulator.js';

// The API's Payment resource, GET /v1/payments/{reference} and GET /v1/payments, its test-card
// table and states; payemu's payments (statuses, `paid`, test cards, failure codes, provider and
// brands, live mode, the saved card, payment ids). Each test is titled with the sentence it
// checks. One emulator serves the file; tests keep apart by reference.

const e = await emulator(t, { clockStart: '2027-01-10T09:00:00Z', freezeClock: true });
const attributes = async (reference: string) => (await e.api.get(`/v1/payments/${reference}`)).body.data.attributes;

t.test(
  'Attributes in the single-payment response: reference, amount (string), currency, status, paid, provider, customer_email, card_last, card_brand; links.self; id is a string',
  async (t) => {
    await pay(e, { amount: 25.5, reference: 'pay-single', customer_email: 'ada@example.com' });
    const res = await e.api.get('/v1/payments/pay-single');
    t.equal(res.status, 200);
    t.equal(res.body.data.type, 'payments');
    t.type(res.body.data.id, 'string');
    t.match(res.body.data.id, /^\d+$/, 'the integer payment id, as a string');
    t.match(res.body.data.attributes, {
      reference: 'pay-single',
      amount: '25.50',
      currency: 'USD',
      status: 'PAID',
      paid: true,
      provider: 'payemu',
      customer_email: 'ada@example.com',
      card_last: '4242',
      card_brand: 'visa',
    });
    t.equal(res.body.data.links.self, `${e.url}/v1/payments/pay-single`);
  },
);

t.test('GET /v1/payments/{reference}: errors 404', async (t) => {
  assertError(t, await e.api.get('/v1/payments/pay-nothing'), 404);
});

t.test(
  'List item attributes: reference, amount, currency, status, paid; meta current_page, last_page, per_page, total (integers); links first, last',
  async (t) => {
    await pay(e, { amount: 3, reference: 'pay-list', customer_email: 'list@example.com' });
    const res = await e.api.get('/v1/payments?filter[customer_email]=list@example.com');
    t.equal(res.status, 200);
    t.equal(res.body.data.length, 1);
    t.match(res.body.data[0].attributes, { reference: 'pay-list', amount: '3.00', currency: 'USD', status: 'PAID', paid: true });
    for (const key of ['current_page', 'last_page', 'per_page', 'total']) t.ok(Number.isInteger(res.body.meta[key]), `meta.${key} is an integer`);
    t.type(res.body.links.first, 'string');
    t.type(res.body.links.last, 'string');
  },
);

t.test('filter[status] and filter[customer_email] select; sort is one of created_at, amount, status, prefix - for descending', async (t) => {
  await pay(e, { amount: 9, reference: 'pay-sort-a', customer_email: 'sort@example.com' });
  await pay(e, { amount: 1, reference: 'pay-sort-b', customer_email: 'sort@example.com' }, '4000000000000002');
  await pay(e, { amount: 5, reference: 'pay-sort-c', customer_email: 'sort@example.com' });
  const refs = async (query: string) =>
    (await e.api.get(`/v1/payments?filter[customer_email]=sort@example.com&${query}`)).body.data.map((p: any) => p.attributes.reference);
  t.same(await refs('sort=amount'), ['pay-sort-b', 'pay-sort-c', 'pay-sort-a']);
  t.same(await refs('sort=-amount'), ['pay-sort-a', 'pay-sort-c', 'pay-sort-b']);
  t.same(await refs('sort=status'), ['pay-sort-b', 'pay-sort-a', 'pay-sort-c'], 'FAILED before PAID; ties (one instant) by id');
  t.same(await refs('filter[status]=FAILED'), ['pay-sort-b']);
  assertError(t, await e.api.get('/v1/payments?sort=colour'), 422);
});

t.test(
  'Statuses: PAID, FAILED, AUTHORIZED, VOIDED, PARTIALLY_REFUNDED, REFUNDED, EXPIRED; paid is true for PAID, PARTIALLY_REFUNDED and REFUNDED',
  async (t) => {
    await pay(e, { amount: 10, reference: 'st-paid' });
    await pay(e, { amount: 10, reference: 'st-failed' }, '4000000000000002');
    await pay(e, { amount: 10, reference: 'st-auth', capture_method: 'manual' });
    await pay(e, { amount: 10, reference: 'st-void', capture_method: 'manual' });
    await e.api.post('/v1/payments/st-void/void');
    await pay(e, { amount: 10, reference: 'st-part' });
    await e.api.post('/v1/payments/st-part/refunds', { amount: 1 });
    await pay(e, { amount: 10, reference: 'st-refunded' });
    await e.api.post('/v1/payments/st-refunded/refunds', { amount: 10 });
    const expected: [string, string, boolean][] = [
      ['st-paid', 'PAID', true],
      ['st-failed', 'FAILED', false],
      ['st-auth', 'AUTHORIZED', false],
      ['st-void', 'VOIDED', false],
      ['st-part', 'PARTIALLY_REFUNDED', true],
      ['st-refunded', 'REFUNDED', true],
    ];
    for (const [reference, status, paid] of expected) t.match(await attributes(reference), { status, paid }, `${status}: paid ${paid}`);
  },
);

t.test('Test cards (spaces ignored): each number has its outcome, brand and failure_code', async (t) => {
  const cards: [string, string, string | null, string][] = [
    ['4242 4242 4242 4242', 'PAID', null, 'visa'],
    ['5555 5555 5555 4444', 'PAID', null, 'mastercard'],
    ['3782 822463 10005', 'PAID', null, 'amex'],
    ['4000 0000 0000 0002', 'FAILED', 'insufficient_funds', 'visa'],
    ['4000 0000 0000 9995', 'FAILED', 'card_declined', 'visa'],
    ['4000 0000 0000 0069', 'FAILED', 'expired_card', 'visa'],
    ['4000 0000 0000 0127', 'FAILED', 'incorrect_cvc', 'visa'],
    ['4000 0000 0000 0341', 'PAID', null, 'visa'],
  ];
  for (const [number, status, code, brand] of cards) {
    const { completed } = await pay(e, { amount: 10 }, number);
    t.match(completed.body.payment, { status, failure_code: code, card_brand: brand, card_last: number.replace(/ /g, '').slice(-4) }, number);
    if (code) t.type(completed.body.payment.failure_message, 'string', `${number}: failure_message`);
  }
});

t.test('4000 0027 6000 3184: 3-D Secure challenge, then approved or failed (authentication_failed) as chosen', async (t) => {
  const pass = await pay(e, { amount: 10 }, '4000002760003184');
  t.equal(pass.completed.status, 422, 'without a three_ds choice: 422');
  const session = pass.session.body.data.id;
  const failed = await e.api.post(`/_payemu/sessions/${session}/complete`, { card_number: '4000002760003184', three_ds: 'fail' });
  t.match(failed.body.payment, { status: 'FAILED', failure_code: 'authentication_failed' });
  const ok = await e.api.post(`/_payemu/sessions/${session}/complete`, { card_number: '4000002760003184', three_ds: 'pass' });
  t.match(ok.body.payment, { status: 'PAID' });
});

t.test('Any other number: declined, card_not_supported, with a message that lists the test cards', async (t) => {
  const { completed } = await pay(e, { amount: 10, reference: 'pay-unknown-card' }, '4111 1111 1111 1111');
  t.match(completed.body.payment, { status: 'FAILED', failure_code: 'card_not_supported' });
  t.match(completed.body.payment.failure_message, /4242 4242 4242 4242/);
  t.match(
    await attributes('pay-unknown-card'),
    { status: 'FAILED', failure_code: 'card_not_supported', failure_message: /4242 4242 4242 4242/ },
    'the FAILED payment carries them',
  );
});

t.test('Live mode refuses the test card numbers (card_declined, "A test card was used in live mode") and approves any other Luhn-valid number', async (t) => {
  const test = await pay(e, { amount: 10 }, '4242424242424242', e.live);
  t.match(test.completed.body.payment, { status: 'FAILED', failure_code: 'card_declined', failure_message: /A test card was used in live mode/ });
  const real = await pay(e, { amount: 10 }, '4012888888881881', e.live);
  t.match(real.completed.body.payment, { status: 'PAID' });
});

t.test('A payment made with save_payment_method: true shows the saved card as attribute payment_method (pm_...)', async (t) => {
  await pay(e, { amount: 10, reference: 'pay-saved', save_payment_method: true });
  t.match((await attributes('pay-saved')).payment_method, /^pm_[0-9A-Za-z]{24}$/);
});

t.test('payment id: integer, increasing per store; a string in the single-payment response', async (t) => {
  const a = await pay(e, { amount: 1, reference: 'pay-id-a' });
  const b = await pay(e, { amount: 1, reference: 'pay-id-b' }, '4242424242424242', e.globex);
  const c = await pay(e, { amount: 1, reference: 'pay-id-c' }, '4012888888881881', e.live);
  const ids = [a, b, c].map((x) => x.completed.body.payment.id as number);
  t.ok(ids.every(Number.isInteger));
  t.ok(ids[0]! < ids[1]! && ids[1]! < ids[2]!, 'one counter for every Source and mode of the store');
  t.equal((await e.api.get('/v1/payments/pay-id-a')).body.data.id, String(ids[0]));
});

t.test('Amounts in responses are decimal strings in the major unit, two decimals', async (t) => {
  await pay(e, { amount: 0.1, reference: 'pay-cents' });
  t.equal((await attributes('pay-cents')).amount, '0.10');
  await pay(e, { amount: 999999.99, reference: 'pay-max' });
  t.equal((await attributes('pay-max')).amount, '999999.99');
});
