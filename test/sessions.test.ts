import t from 'tap';
import { assertError, emulator, pay } from './helpers/emulator.js';

t.test('POST /v1/sessions creates a session with SPEC.md attributes', async (t) => {
  const e = await emulator(t);
  const res = await e.api.post('/v1/sessions', { amount: 10.5, reference: 'order_1', currency: 'usd' });
  t.equal(res.status, 201);
  const data = res.body.data;
  t.match(data.id, /^cs_[0-9A-Za-z]{24}$/);
  t.equal(data.type, 'sessions');
  t.same(Object.keys(data.attributes).sort(), ['amount', 'checkout_url', 'currency', 'expires_at', 'reference']);
  t.equal(data.attributes.amount, 10.5, 'amount is a number');
  t.equal(data.attributes.currency, 'USD');
  t.equal(data.attributes.checkout_url, `${e.url}/checkout/${data.id}`);
  t.match(data.attributes.expires_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  t.same(data.links, { self: `${e.url}/v1/sessions/${data.id}`, checkout: data.attributes.checkout_url });
});

t.test('a bad amount is a 422 naming the field', async (t) => {
  const e = await emulator(t);
  const res = await e.api.post('/v1/sessions', { amount: 10.005 });
  assertError(t, res, 422);
  t.same(res.body.errors[0].meta.errors, { amount: ['The amount field must have at most 2 decimal places.'] });
});

t.test('defaults: generated reference, the Source currency, automatic capture', async (t) => {
  const e = await emulator(t);
  const created = await e.api.post('/v1/sessions', { amount: 1 });
  t.match(created.body.data.attributes.reference, /^pay_[0-9A-Za-z]{16}$/);
  t.equal(created.body.data.attributes.currency, 'USD');
  const globex = await e.globex.post('/v1/sessions', { amount: 1 });
  t.equal(globex.body.data.attributes.currency, 'EUR', "globex's currency");
  const read = await e.api.get(`/v1/sessions/${created.body.data.id}`);
  t.equal(read.status, 200);
  t.match(read.body.data.attributes, {
    status: 'open',
    payment_status: 'unpaid',
    capture_method: 'automatic',
    success_url: null,
    cancel_url: null,
    customer_email: null,
  });
});

t.test('GET /v1/sessions/{id} returns every field given', async (t) => {
  const e = await emulator(t);
  const body = {
    amount: 99.99,
    reference: 'order-42',
    currency: 'EUR',
    description: 'Two mugs',
    success_url: 'https://shop.example/ok',
    cancel_url: 'https://shop.example/cancel',
    customer_email: 'ada@example.com',
    customer_name: 'Ada',
    metadata: { order_id: 42, nested: { a: [1, 2] } },
    subtotal: 90,
    discount: 5,
    shipping: 4.99,
    tax: { amount: 10, lines: [{ name: 'VAT', rate: 11.11, amount: 10 }] },
    capture_method: 'manual',
    save_payment_method: true,
  };
  const created = await e.api.post('/v1/sessions', body);
  t.equal(created.status, 201);
  const read = await e.api.get(`/v1/sessions/${created.body.data.id}`);
  t.match(read.body.data.attributes, {
    amount: 99.99,
    currency: 'EUR',
    reference: 'order-42',
    status: 'open',
    payment_status: 'unpaid',
    description: 'Two mugs',
    success_url: 'https://shop.example/ok',
    cancel_url: 'https://shop.example/cancel',
    customer_email: 'ada@example.com',
    customer_name: 'Ada',
    capture_method: 'manual',
    save_payment_method: true,
    metadata: { order_id: 42, nested: { a: [1, 2] } },
    subtotal: 90,
    discount: 5,
    shipping: 4.99,
    tax: { amount: 10, lines: [{ name: 'VAT', rate: 11.11, amount: 10 }] },
  });
  t.equal(read.body.data.attributes.created_at.length, 27);
});

t.test('every field rule of SPEC.md is a 422', async (t) => {
  const e = await emulator(t);
  const cases: [Record<string, unknown>, string][] = [
    [{}, 'amount'],
    [{ amount: 0 }, 'amount'],
    [{ amount: 0.001 }, 'amount'],
    [{ amount: 1000000 }, 'amount'],
    [{ amount: -5 }, 'amount'],
    [{ amount: '10' }, 'amount'],
    [{ amount: 1, reference: 'r'.repeat(256) }, 'reference'],
    [{ amount: 1, reference: 12 }, 'reference'],
    [{ amount: 1, currency: 'US' }, 'currency'],
    [{ amount: 1, currency: 'ABC' }, 'currency'],
    [{ amount: 1, description: 'd'.repeat(501) }, 'description'],
    [{ amount: 1, success_url: 'not a url' }, 'success_url'],
    [{ amount: 1, cancel_url: 'data:text/html,hi' }, 'cancel_url'],
    [{ amount: 1, customer_email: 'x@' }, 'customer_email'],
    [{ amount: 1, customer_name: 'n'.repeat(256) }, 'customer_name'],
    [{ amount: 1, metadata: 'x' }, 'metadata'],
    [{ amount: 1, subtotal: -1 }, 'subtotal'],
    [{ amount: 1, discount: -0.01 }, 'discount'],
    [{ amount: 1, shipping: 'free' }, 'shipping'],
    [{ amount: 1, tax: { amount: -1 } }, 'tax.amount'],
    [{ amount: 1, tax: { amount: 1, lines: [{ name: 'VAT', amount: 1, rate: -1 }] } }, 'tax.lines.0.rate'],
    [{ amount: 1, tax: { amount: 1, lines: [{ name: 'x'.repeat(256), amount: 1 }] } }, 'tax.lines.0.name'],
    [{ amount: 1, capture_method: 'later' }, 'capture_method'],
    [{ amount: 1, save_payment_method: 'yes' }, 'save_payment_method'],
    [{ amount: 1, apply_tax: 1 }, 'apply_tax'],
  ];
  for (const [body, field] of cases) {
    const res = await e.api.post('/v1/sessions', body);
    t.equal(res.status, 422, `${JSON.stringify(body).slice(0, 80)} -> 422`);
    t.ok(res.body.errors[0].meta.errors[field], `names ${field}`);
  }
  // Boundaries that are fine.
  for (const amount of [0.01, 999999.99, 0.1, 0.29]) t.equal((await e.api.post('/v1/sessions', { amount })).status, 201, `amount ${amount}`);
  t.equal((await e.api.get('/v1/payments')).body.meta.total, 0, 'no refusal created anything');
});

t.test('apply_tax: exclusive adds the tax, inclusive extracts it, and it overrides tax', async (t) => {
  const e = await emulator(t);
  // acme: 7.25 % exclusive.
  const acme = await e.api.post('/v1/sessions', { amount: 100, apply_tax: true, tax: { amount: 50 } });
  t.equal(acme.body.data.attributes.amount, 107.25);
  const acmeRead = await e.api.get(`/v1/sessions/${acme.body.data.id}`);
  t.match(acmeRead.body.data.attributes, { subtotal: 100, tax: { amount: 7.25, lines: [{ name: 'Sales tax', rate: 7.25, amount: 7.25 }] } });
  // globex: 21 % inclusive: tax = round(121 x 21 / 121) = 21.
  const globex = await e.globex.post('/v1/sessions', { amount: 121, apply_tax: true });
  t.equal(globex.body.data.attributes.amount, 121);
  const globexRead = await e.globex.get(`/v1/sessions/${globex.body.data.id}`);
  t.match(globexRead.body.data.attributes, { subtotal: 100, tax: { amount: 21 } });
  // Half-up rounding to the cent: 0.99 x 7.25 % = 0.071775 -> 0.07.
  const small = await e.api.post('/v1/sessions', { amount: 0.99, apply_tax: true });
  t.equal(small.body.data.attributes.amount, 1.06);
});

t.test('reference rules: open sessions and failed attempts allow a new session; a paid reference is a 409', async (t) => {
  const e = await emulator(t);
  const first = await e.api.post('/v1/sessions', { amount: 10, reference: 'order-1' });
  const second = await e.api.post('/v1/sessions', { amount: 10, reference: 'order-1' });
  t.equal(second.status, 201, 'a second open session for the reference');
  t.equal((await e.api.get('/v1/payments/order-1')).status, 404, 'only open sessions: no payment yet');

  const declined = await e.api.post(`/_payemu/sessions/${first.body.data.id}/complete`, { card_number: '4000000000000002' });
  t.equal(declined.body.payment.status, 'FAILED');
  t.equal((await e.api.post('/v1/sessions', { amount: 12, reference: 'order-1' })).status, 201, 'a FAILED payment allows another attempt');

  const paid = await e.api.post(`/_payemu/sessions/${first.body.data.id}/complete`, { card_number: '4242424242424242' });
  t.equal(paid.body.payment.status, 'PAID');
  t.equal(paid.body.payment.id, declined.body.payment.id, 'the same payment, a new attempt');
  const conflict = await e.api.post('/v1/sessions', { amount: 10, reference: 'order-1' });
  assertError(t, conflict, 409, /order-1/);

  // The other open sessions of the reference expired when one was paid.
  const other = await e.api.get(`/v1/sessions/${second.body.data.id}`);
  t.equal(other.body.data.attributes.status, 'expired');
  const late = await e.api.post(`/_payemu/sessions/${second.body.data.id}/complete`, { card_number: '4242424242424242' });
  assertError(t, late, 410);
});

t.test('a manual-capture payment holds the reference too (409)', async (t) => {
  const e = await emulator(t);
  const { completed } = await pay(e, { amount: 10, reference: 'held', capture_method: 'manual' });
  t.equal(completed.body.payment.status, 'AUTHORIZED');
  t.equal(completed.body.session.payment_status, 'authorized');
  assertError(t, await e.api.post('/v1/sessions', { amount: 10, reference: 'held' }), 409);
});

t.test('completing a session: 409 when complete, 410 when expired, 422 for 3-D Secure without a choice', async (t) => {
  const e = await emulator(t);
  const { session } = await pay(e, { amount: 10 });
  assertError(t, await e.api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: '4242424242424242' }), 409);

  const threeDs = await e.api.post('/v1/sessions', { amount: 10 });
  const id = threeDs.body.data.id;
  const noChoice = await e.api.post(`/_payemu/sessions/${id}/complete`, { card_number: '4000 0027 6000 3184' });
  assertError(t, noChoice, 422);
  t.ok(noChoice.body.errors[0].meta.errors.three_ds);
  const failed = await e.api.post(`/_payemu/sessions/${id}/complete`, { card_number: '4000002760003184', three_ds: 'fail' });
  t.equal(failed.body.payment.failure_code, 'authentication_failed');
  const passed = await e.api.post(`/_payemu/sessions/${id}/complete`, { card_number: '4000002760003184', three_ds: 'pass' });
  t.equal(passed.body.payment.status, 'PAID');

  assertError(t, await e.api.post('/_payemu/sessions/cs_nope/complete', { card_number: '4242424242424242' }), 404);
  assertError(t, await e.api.post(`/_payemu/sessions/${id}/complete`, { card_number: 'abc' }), 422);
});

t.test('sessions expire 24 hours after creation on the virtual clock', async (t) => {
  const e = await emulator(t);
  const created = await e.api.post('/v1/sessions', { amount: 10, reference: 'late' });
  const id = created.body.data.id;
  const expiresAt = Date.parse(created.body.data.attributes.expires_at);
  const createdAt = Date.parse((await e.api.get(`/v1/sessions/${id}`)).body.data.attributes.created_at);
  t.equal(expiresAt - createdAt, 24 * 3600 * 1000);

  const advanced = await e.api.post('/_payemu/clock/advance', { by: '23h' });
  t.same(advanced.body.ran, {});
  t.equal((await e.api.get(`/v1/sessions/${id}`)).body.data.attributes.status, 'open');
  const later = await e.api.post('/_payemu/clock/advance', { by: '1h' });
  t.same(later.body.ran, { 'session.expired': 1 });
  t.equal(later.body.items[0].id, id);
  t.equal(later.body.items[0].at, created.body.data.attributes.expires_at, 'ran at its own virtual time');
  t.equal((await e.api.get(`/v1/sessions/${id}`)).body.data.attributes.status, 'expired');
  assertError(t, await e.api.post(`/_payemu/sessions/${id}/complete`, { card_number: '4242424242424242' }), 410);
  t.equal((await e.api.post('/v1/sessions', { amount: 10, reference: 'late' })).status, 201, 'an abandoned reference can be used again');
});

t.test("a Source cannot read or complete another Source's session", async (t) => {
  const e = await emulator(t);
  const created = await e.api.post('/v1/sessions', { amount: 10 });
  const id = created.body.data.id;
  assertError(t, await e.globex.get(`/v1/sessions/${id}`), 404);
  assertError(t, await e.live.get(`/v1/sessions/${id}`), 404);
  assertError(t, await e.globex.post(`/_payemu/sessions/${id}/complete`, { card_number: '4242424242424242' }), 404);
  t.equal((await e.api.get(`/v1/sessions/${id}`)).body.data.attributes.status, 'open');
});
