import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { assertError, emulator, pay, type TestEmulator } from './helpers/emulator.js';

t.test('GET /v1/payments/{reference}: SPEC.md attributes, links.self, string id', async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 25.5, reference: 'order/7 ü', customer_email: 'ada@example.com', metadata: { cart: 7 } });
  const res = await e.api.get(`/v1/payments/${encodeURIComponent('order/7 ü')}`);
  t.equal(res.status, 200);
  const data = res.body.data;
  t.equal(data.id, '1');
  t.equal(data.type, 'payments');
  t.match(data.attributes, {
    reference: 'order/7 ü',
    amount: '25.50',
    currency: 'USD',
    status: 'PAID',
    paid: true,
    provider: 'payemu',
    customer_email: 'ada@example.com',
    card_last: '4242',
    card_brand: 'visa',
    metadata: { cart: 7 },
  });
  t.equal(data.links.self, `${e.url}/v1/payments/order%2F7%20%C3%BC`);
  assertError(t, await e.api.get('/v1/payments/nope'), 404, /nope/);
});

t.test('every test card of DESIGN.md has its outcome, brand and failure code', async (t) => {
  const e = await emulator(t);
  const cards: [string, string, string | null, string][] = [
    ['4242 4242 4242 4242', 'PAID', null, 'visa'],
    ['5555 5555 5555 4444', 'PAID', null, 'mastercard'],
    ['3782 822463 10005', 'PAID', null, 'amex'],
    ['4000 0000 0000 0002', 'FAILED', 'insufficient_funds', 'visa'],
    ['4000 0000 0000 9995', 'FAILED', 'card_declined', 'visa'],
    ['4000 0000 0000 0069', 'FAILED', 'expired_card', 'visa'],
    ['4000 0000 0000 0127', 'FAILED', 'incorrect_cvc', 'visa'],
    ['4000 0000 0000 0341', 'PAID', null, 'visa'],
    ['4111 1111 1111 1111', 'FAILED', 'card_not_supported', 'visa'],
  ];
  for (const [number, status, code, brand] of cards) {
    const { completed } = await pay(e, { amount: 10 }, number);
    const payment = completed.body.payment;
    t.equal(payment.status, status, `${number}: ${status}`);
    t.equal(payment.failure_code, code, `${number}: failure_code ${code}`);
    t.equal(payment.card_brand, brand);
    t.equal(payment.card_last, number.replace(/ /g, '').slice(-4));
    if (code) t.type(payment.failure_message, 'string');
  }
  const { completed } = await pay(e, { amount: 10 }, '4111111111111111');
  t.match(completed.body.payment.failure_message, /4242 4242 4242 4242/, 'the unknown-card message lists the test cards');
});

t.test('live mode refuses test cards and approves any other Luhn-valid card', async (t) => {
  const e = await emulator(t);
  const test = await pay(e, { amount: 10 }, '4242424242424242', e.live);
  t.match(test.completed.body.payment, { status: 'FAILED', failure_code: 'card_declined', failure_message: 'A test card was used in live mode.' });
  const real = await pay(e, { amount: 10 }, '4012 8888 8888 1881', e.live);
  t.match(real.completed.body.payment, { status: 'PAID', card_brand: 'visa', card_last: '1881' });
  // A Luhn-invalid number is a typing mistake: refused before any attempt (a 422), in live mode too.
  const bad = await pay(e, { amount: 10 }, '4012 8888 8888 1882', e.live);
  t.equal(bad.completed.status, 422);
  t.ok(bad.completed.body.errors[0].meta.errors.card_number);
});

t.test('save_payment_method shows the saved card as payment_method', async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 10, reference: 'saved', save_payment_method: true });
  const payment = await e.api.get('/v1/payments/saved');
  t.match(payment.body.data.attributes.payment_method, /^pm_[0-9A-Za-z]{24}$/);
  await pay(e, { amount: 10, reference: 'not-saved' });
  t.notOk('payment_method' in (await e.api.get('/v1/payments/not-saved')).body.data.attributes);
});

async function seed(e: TestEmulator) {
  // Created in this order, a minute apart on the virtual clock.
  const rows: [string, number, string, string][] = [
    ['a', 30, 'ada@example.com', '4242424242424242'],
    ['b', 10, 'bob@example.com', '4000000000000002'],
    ['c', 20, 'ada@example.com', '4242424242424242'],
    ['d', 20, 'cy@example.com', '4242424242424242'],
    ['e', 5, 'BOB@example.com', '4242424242424242'],
  ];
  for (const [reference, amount, customer_email, card] of rows) {
    await pay(e, { amount, reference, customer_email }, card);
    await e.api.post('/_payemu/clock/advance', { by: '1m' });
  }
}

const refs = (res: { body: { data: { attributes: { reference: string } }[] } }) => res.body.data.map((p) => p.attributes.reference);

t.test('GET /v1/payments: list items, newest first, meta and links', async (t) => {
  const e = await emulator(t, { freezeClock: true, clockStart: '2026-01-10T12:00:00Z' });
  await seed(e);
  const res = await e.api.get('/v1/payments');
  t.equal(res.status, 200);
  t.same(refs(res), ['e', 'd', 'c', 'b', 'a']);
  t.same(Object.keys(res.body.data[0].attributes), ['reference', 'amount', 'currency', 'status', 'paid']);
  t.same(res.body.meta, { current_page: 1, last_page: 1, per_page: 15, total: 5 });
  t.match(res.body.links.first, /page%5Bnumber%5D=1/);

  const page2 = await e.api.get('/v1/payments?page[size]=2&page[number]=2');
  t.same(refs(page2), ['c', 'b']);
  t.same(page2.body.meta, { current_page: 2, last_page: 3, per_page: 2, total: 5 });
  t.match(page2.body.links.next, /page%5Bnumber%5D=3/);
  t.match(page2.body.links.last, /page%5Bnumber%5D=3/);
  const past = await e.api.get('/v1/payments?page[size]=2&page[number]=9');
  t.equal(past.status, 200, 'a page past the last is 200');
  t.same(past.body.data, []);
});

t.test('GET /v1/payments: filters', async (t) => {
  const e = await emulator(t, { freezeClock: true, clockStart: '2026-01-10T12:00:00Z' });
  await seed(e);
  t.same(refs(await e.api.get('/v1/payments?filter[status]=FAILED')), ['b']);
  t.same(refs(await e.api.get('/v1/payments?filter[status]=paid')), ['e', 'd', 'c', 'a'], 'status is case-insensitive');
  t.same(refs(await e.api.get('/v1/payments?filter[customer_email]=bob@example.com')), ['e', 'b']);
  // a was created at 12:00, b 12:01, c 12:02, d 12:03, e 12:04; bounds are exclusive.
  t.same(refs(await e.api.get('/v1/payments?filter[created_after]=2026-01-10T12:02:00Z')), ['e', 'd']);
  t.same(refs(await e.api.get('/v1/payments?filter[created_before]=2026-01-10T12:02:00.000000Z')), ['b', 'a']);
  t.same(refs(await e.api.get('/v1/payments?filter[created_after]=2026-01-10')), ['e', 'd', 'c', 'b', 'a'], 'a bare date is 00:00 UTC');
  t.same(refs(await e.api.get('/v1/payments?filter[created_before]=2026-01-10')), []);
  t.same(refs(await e.api.get('/v1/payments?filter[status]=PAID&filter[customer_email]=ada@example.com')), ['c', 'a']);
});

t.test('GET /v1/payments: sort and sparse fieldsets', async (t) => {
  const e = await emulator(t, { freezeClock: true, clockStart: '2026-01-10T12:00:00Z' });
  await seed(e);
  t.same(refs(await e.api.get('/v1/payments?sort=created_at')), ['a', 'b', 'c', 'd', 'e']);
  t.same(refs(await e.api.get('/v1/payments?sort=amount')), ['e', 'b', 'c', 'd', 'a'], 'ties by id');
  t.same(refs(await e.api.get('/v1/payments?sort=-amount')), ['a', 'd', 'c', 'b', 'e']);
  t.same(refs(await e.api.get('/v1/payments?sort=status,-amount')), ['b', 'a', 'c', 'd', 'e'], "ties by id, in the first key's direction");
  const sparse = await e.api.get('/v1/payments?fields[payments]=reference,amount,card_brand');
  t.same(sparse.body.data[0].attributes, { reference: 'e', amount: '5.00', card_brand: 'visa' });
});

t.test('GET /v1/payments: bad parameters are a 422 naming them', async (t) => {
  const e = await emulator(t);
  const cases: [string, string][] = [
    ['page[size]=0', 'page[size]'],
    ['page[size]=101', 'page[size]'],
    ['page[size]=abc', 'page[size]'],
    ['page[number]=0', 'page[number]'],
    ['filter[nope]=1', 'filter[nope]'],
    ['filter[status]=LOST', 'filter[status]'],
    ['filter[created_after]=yesterday', 'filter[created_after]'],
    ['filter[created_before]=2026-02-30', 'filter[created_before]'],
    ['sort=reference', 'sort'],
    ['sort=-', 'sort'],
    ['fields[payments]=secret', 'fields[payments]'],
    ['fields[refunds]=colour', 'fields[refunds]'],
    ['fields[invoices]=number', 'fields[invoices]'],
    ['page[size]=1&page[size]=2', 'page[size]'],
  ];
  for (const [query, param] of cases) {
    const res = await e.api.get(`/v1/payments?${query}`);
    assertError(t, res, 422);
    t.ok(res.body.errors[0].meta.errors[param], `${query} names ${param}`);
  }
  t.equal((await e.api.get('/v1/payments?unrelated=1')).status, 200, 'other parameters are ignored');
});

t.test('amounts are exact strings (a float such as 1.005 - 0.005, written 0.9999999999999999, is refused: test/written-amounts.test.ts)', async (t) => {
  const e = await emulator(t);
  for (const [amount, text] of [
    [0.1, '0.10'],
    [0.29, '0.29'],
    [12.5, '12.50'],
    [999999.99, '999999.99'],
    [0.01, '0.01'],
  ] as const) {
    const reference = `amount-${text}`;
    await pay(e, { amount, reference });
    t.equal((await e.api.get(`/v1/payments/${reference}`)).body.data.attributes.amount, text);
  }
});

t.test('update and capture times: the same as the creation time until something changes, and the same after a restart', async (t) => {
  const dataDir = t.testdir();
  const options = { inMemory: false, dataDir, clockStart: '2027-03-01T09:00:00Z', freezeClock: true };
  let e = await emulator(t, options);
  const times = async (reference: string) => {
    const { created_at, updated_at, captured_at, status } = (await e.api.get(`/v1/payments/${reference}`)).body.data.attributes;
    return { status, created_at, updated_at, captured_at };
  };
  await pay(e, { amount: 10, reference: 'paid-at-once' });
  const at = '2027-03-01T09:00:00.000000Z';
  t.same(await times('paid-at-once'), { status: 'PAID', created_at: at, updated_at: at, captured_at: at }, 'paid when created: captured then');
  await pay(e, { amount: 10, reference: 'held', capture_method: 'manual' });
  t.same(await times('held'), { status: 'AUTHORIZED', created_at: at, updated_at: at, captured_at: null }, 'a hold is not captured');

  await pay(e, { amount: 10, reference: 'second-try' }, '4000000000000002');
  await e.clock.advance('1h');
  await pay(e, { amount: 10, reference: 'second-try' });
  const later = '2027-03-01T10:00:00.000000Z';
  t.same(await times('second-try'), { status: 'PAID', created_at: at, updated_at: later, captured_at: later }, 'paid on a later attempt: captured then');
  await e.api.post('/v1/payments/paid-at-once/refunds', { amount: 10 });
  t.same(
    await times('paid-at-once'),
    { status: 'REFUNDED', created_at: at, updated_at: later, captured_at: at },
    'a refund changes the update time, not the capture time',
  );

  const journal = fs.readdirSync(dataDir).find((name) => name.startsWith('journal-'))!;
  const written = fs
    .readFileSync(path.join(dataDir, journal), 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => JSON.parse(line) as [string, string, Record<string, unknown>][])
    .filter(([collection]) => collection === 'payments');
  t.notOk('updated_at' in written[0]![2] || 'captured_at' in written[0]![2], 'a payment paid when created is written without the two times');

  const before = await Promise.all(['paid-at-once', 'held', 'second-try'].map(times));
  await e.close();
  e = await emulator(t, options);
  t.same(await Promise.all(['paid-at-once', 'held', 'second-try'].map(times)), before, 'read back the same after a restart');
});
