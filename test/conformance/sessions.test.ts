import t from 'tap';
import { assertError, emulator, pay } from '../helpers/emulator.js';

// The API's Session resource and POST /v1/sessions, and payemu's sessions and reference rules
// (a payment per reference, `payment_status`, `GET /v1/sessions/{id}`, expiry after 24 hours).
// Each test is titled with the sentence it checks. One emulator serves the file; tests keep
// apart by reference.

const e = await emulator(t, { clockStart: '2027-01-10T09:00:00Z', freezeClock: true });
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
const complete = (id: string, card = '4242424242424242', extra: Record<string, unknown> = {}) =>
  e.api.post(`/_payemu/sessions/${id}/complete`, { card_number: card, ...extra });

t.test(
  'Response data: id (prefix cs_), type sessions, attributes amount (number), currency, reference, checkout_url, expires_at (microseconds, UTC); links self, checkout',
  async (t) => {
    const res = await e.api.post('/v1/sessions', { amount: 10.5, reference: 'ses-shape', currency: 'USD' });
    t.equal(res.status, 201, 'a POST that creates a resource answers 201');
    const data = res.body.data;
    t.match(data.id, /^cs_[0-9A-Za-z]{24}$/, 'cs_ + 24 base62');
    t.equal(data.type, 'sessions');
    t.same(Object.keys(data.attributes).sort(), ['amount', 'checkout_url', 'currency', 'expires_at', 'reference']);
    t.equal(data.attributes.amount, 10.5, 'The session-creation response returns amount as a number');
    t.match(data.attributes.expires_at, TIMESTAMP);
    t.same(data.links, { self: `${e.url}/v1/sessions/${data.id}`, checkout: data.attributes.checkout_url });
  },
);

t.test('A session expires 24 hours after creation (on the virtual clock)', async (t) => {
  const res = await e.api.post('/v1/sessions', { amount: 1, reference: 'ses-expiry' });
  t.equal(res.body.data.attributes.expires_at, '2027-01-11T09:00:00.000000Z');
});

t.test("currency: defaults to the Source's configured currency", async (t) => {
  t.equal((await e.api.post('/v1/sessions', { amount: 1 })).body.data.attributes.currency, 'USD');
  t.equal((await e.globex.post('/v1/sessions', { amount: 1 })).body.data.attributes.currency, 'EUR');
});

t.test('A session without reference gets a generated one, pay_ + 16 base62', async (t) => {
  t.match((await e.api.post('/v1/sessions', { amount: 1 })).body.data.attributes.reference, /^pay_[0-9A-Za-z]{16}$/);
});

t.test('Create request rules: every one broken is a 422 naming the field', async (t) => {
  const cases: [Record<string, unknown>, string][] = [
    [{}, 'amount'],
    [{ amount: 0 }, 'amount'],
    [{ amount: 1_000_000 }, 'amount'],
    [{ amount: 1, reference: 'r'.repeat(256) }, 'reference'],
    [{ amount: 1, currency: 'US' }, 'currency'],
    [{ amount: 1, description: 'd'.repeat(501) }, 'description'],
    [{ amount: 1, success_url: 'not a url' }, 'success_url'],
    [{ amount: 1, cancel_url: 'ftp://x.example' }, 'cancel_url'],
    [{ amount: 1, customer_email: 'nope' }, 'customer_email'],
    [{ amount: 1, customer_name: 'n'.repeat(256) }, 'customer_name'],
    [{ amount: 1, subtotal: -1 }, 'subtotal'],
    [{ amount: 1, discount: -1 }, 'discount'],
    [{ amount: 1, shipping: -1 }, 'shipping'],
    [{ amount: 1, tax: { amount: -1 } }, 'tax.amount'],
    [{ amount: 1, tax: { amount: 1, lines: [{ rate: 1, amount: 1 }] } }, 'tax.lines.0.name'],
    [{ amount: 1, tax: { amount: 1, lines: [{ name: 'VAT', rate: 1 }] } }, 'tax.lines.0.amount'],
    [{ amount: 1, tax: { amount: 1, lines: [{ name: 'n'.repeat(256), amount: 1 }] } }, 'tax.lines.0.name'],
    [{ amount: 1, tax: { amount: 1, lines: [{ name: 'VAT', rate: -1, amount: 1 }] } }, 'tax.lines.0.rate'],
    [{ amount: 1, capture_method: 'later' }, 'capture_method'],
    [{ amount: 1, save_payment_method: 'yes' }, 'save_payment_method'],
    [{ amount: 1, apply_tax: 'yes' }, 'apply_tax'],
  ];
  for (const [body, field] of cases) {
    const res = await e.api.post('/v1/sessions', body);
    assertError(t, res, 422);
    t.ok(res.body.errors[0].meta.errors[field], `${JSON.stringify(body).slice(0, 80)}: names ${field}`);
  }
  t.equal((await e.api.post('/v1/sessions', { amount: 0.01 })).status, 201, 'min 0.01');
  t.equal((await e.api.post('/v1/sessions', { amount: 999999.99 })).status, 201, 'max 999999.99');
});

t.test(
  'GET /v1/sessions/{id} returns amount (number), currency, reference, status, checkout_url, expires_at, success_url, cancel_url, customer_email, capture_method, payment_status, created_at',
  async (t) => {
    const created = await e.api.post('/v1/sessions', {
      amount: 20,
      reference: 'ses-read',
      success_url: 'https://shop.example/ok',
      cancel_url: 'https://shop.example/no',
      customer_email: 'ada@example.com',
    });
    const read = await e.api.get(`/v1/sessions/${created.body.data.id}`);
    t.equal(read.status, 200);
    t.match(read.body.data.attributes, {
      amount: 20,
      currency: 'USD',
      reference: 'ses-read',
      status: 'open',
      checkout_url: created.body.data.attributes.checkout_url,
      expires_at: created.body.data.attributes.expires_at,
      success_url: 'https://shop.example/ok',
      cancel_url: 'https://shop.example/no',
      customer_email: 'ada@example.com',
      capture_method: 'automatic',
      payment_status: 'unpaid',
      created_at: '2027-01-10T09:00:00.000000Z',
    });
  },
);

t.test('payment_status of a session: unpaid, paid, authorized, failed; status open, complete, expired', async (t) => {
  const read = async (id: string) => (await e.api.get(`/v1/sessions/${id}`)).body.data.attributes;
  const paid = await pay(e, { amount: 5, reference: 'ses-ps-paid' });
  t.match(await read(paid.session.body.data.id), { status: 'complete', payment_status: 'paid' });
  const held = await pay(e, { amount: 5, reference: 'ses-ps-held', capture_method: 'manual' });
  t.match(await read(held.session.body.data.id), { status: 'complete', payment_status: 'authorized' });
  const failed = await pay(e, { amount: 5, reference: 'ses-ps-failed' }, '4000000000009995');
  t.match(await read(failed.session.body.data.id), { status: 'open', payment_status: 'failed' }, 'a decline leaves the session open for another try');
});

t.test('A payment exists from the first checkout attempt on its reference (a reference with only an open session is a 404 and is not listed)', async (t) => {
  const created = await e.api.post('/v1/sessions', { amount: 5, reference: 'ses-exists' });
  assertError(t, await e.api.get('/v1/payments/ses-exists'), 404);
  t.notOk((await e.api.get('/v1/payments?page[size]=100')).body.data.some((p: any) => p.attributes.reference === 'ses-exists'));
  await complete(created.body.data.id, '4000000000000002');
  t.equal((await e.api.get('/v1/payments/ses-exists')).body.data.attributes.status, 'FAILED');
});

t.test(
  'A session for a reference that has only an open session, or whose payment is FAILED, VOIDED or EXPIRED, is allowed; PAID, AUTHORIZED, PARTIALLY_REFUNDED and REFUNDED give 409',
  async (t) => {
    await e.api.post('/v1/sessions', { amount: 5, reference: 'ses-open' });
    t.equal((await e.api.post('/v1/sessions', { amount: 5, reference: 'ses-open' })).status, 201, 'open session');
    await pay(e, { amount: 5, reference: 'ses-failed' }, '4000000000000002');
    t.equal((await e.api.post('/v1/sessions', { amount: 5, reference: 'ses-failed' })).status, 201, 'FAILED');
    await pay(e, { amount: 5, reference: 'ses-voided', capture_method: 'manual' });
    await e.api.post('/v1/payments/ses-voided/void');
    t.equal((await e.api.post('/v1/sessions', { amount: 5, reference: 'ses-voided' })).status, 201, 'VOIDED');
    await pay(e, { amount: 5, reference: 'ses-paid' });
    assertError(t, await e.api.post('/v1/sessions', { amount: 5, reference: 'ses-paid' }), 409);
    await pay(e, { amount: 5, reference: 'ses-auth', capture_method: 'manual' });
    assertError(t, await e.api.post('/v1/sessions', { amount: 5, reference: 'ses-auth' }), 409);
    await pay(e, { amount: 5, reference: 'ses-part' });
    await e.api.post('/v1/payments/ses-part/refunds', { amount: 1 });
    assertError(t, await e.api.post('/v1/sessions', { amount: 5, reference: 'ses-part' }), 409);
    await pay(e, { amount: 5, reference: 'ses-refunded' });
    await e.api.post('/v1/payments/ses-refunded/refunds', { amount: 5 });
    assertError(t, await e.api.post('/v1/sessions', { amount: 5, reference: 'ses-refunded' }), 409);
  },
);

t.test('When one of several open sessions of a reference is paid, the others expire', async (t) => {
  const a = await e.api.post('/v1/sessions', { amount: 5, reference: 'ses-race' });
  const b = await e.api.post('/v1/sessions', { amount: 5, reference: 'ses-race' });
  await complete(a.body.data.id);
  t.equal((await e.api.get(`/v1/sessions/${b.body.data.id}`)).body.data.attributes.status, 'expired');
  assertError(t, await complete(b.body.data.id), 410);
});

t.test(
  'Completing a session: a decline answers 200 with the FAILED payment; a complete session is a 409, an expired one a 410; the 3-D Secure card without a three_ds choice is a 422',
  async (t) => {
    const s = await e.api.post('/v1/sessions', { amount: 5, reference: 'ses-complete' });
    const id = s.body.data.id;
    const declined = await complete(id, '4000000000000002');
    t.equal(declined.status, 200);
    t.equal(declined.body.payment.status, 'FAILED');
    assertError(t, await complete(id, '4000002760003184'), 422);
    t.equal((await complete(id, '4000002760003184', { three_ds: 'pass' })).body.payment.status, 'PAID');
    assertError(t, await complete(id), 409);
    const old = await e.api.post('/v1/sessions', { amount: 5, reference: 'ses-old' });
    await e.api.post('/_payemu/clock/advance', { by: '24h' });
    t.equal(
      (await e.api.get(`/v1/sessions/${old.body.data.id}`)).body.data.attributes.status,
      'expired',
      'expired 24 hours after creation on the virtual clock',
    );
    assertError(t, await complete(old.body.data.id), 410);
  },
);

t.test(
  'apply_tax: with exclusive tax, amount is the subtotal and tax is added; with inclusive tax, tax is extracted; the session response amount is what the customer pays',
  async (t) => {
    t.equal((await e.api.post('/v1/sessions', { amount: 100, apply_tax: true })).body.data.attributes.amount, 107.25, 'acme: exclusive 7.25 %');
    const inclusive = await emulator(t, { config: { sources: [{ slug: 'acme', tax: { enabled: true, name: 'VAT', rate: 20, inclusive: true } }] } });
    t.equal(
      (await inclusive.api.post('/v1/sessions', { amount: 120, apply_tax: true })).body.data.attributes.amount,
      120,
      'inclusive: the customer pays amount',
    );
  },
);
