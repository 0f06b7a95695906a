import t, { type Test } from 'tap';
import { assertError, emulator, pay } from '../helpers/emulator.js';

// DESIGN.md 4b (lists) and 5 (payments, lists): `include` and `fields[...]` follow JSON:API on
// single resources and lists alike. Each test is titled with the sentence it checks.

/** One of everything a GET of /v1 answers, in the acme test scope. */
async function world(t: Test) {
  const e = await emulator(t, { freezeClock: true, clockStart: '2027-03-01T10:00:00Z' });
  const { session, completed } = await pay(e, { amount: 30, reference: 'order-1', customer_email: 'ada@example.com', save_payment_method: true });
  const pm = completed.body.payment.payment_method as string;
  const r1 = await e.api.post('/v1/payments/order-1/refunds', { amount: 5, reason: 'damaged' });
  const r2 = await e.api.post('/v1/payments/order-1/refunds', { amount: 2.5 });
  await pay(e, { amount: 12, reference: 'order-2' });
  const invoice = await e.api.post('/v1/invoices', {
    customer_name: 'Ada',
    customer_email: 'ada@example.com',
    currency: 'USD',
    due_date: '2027-03-10',
    items: [{ description: 'Work', quantity: 1, unit_price: 10 }],
  });
  const link = await e.api.post('/v1/payment-links', { title: 'Mug', amount: 12.5 });
  const schedule = await e.api.post('/v1/recurring-payments', {
    payment_method: pm,
    amount: 9,
    frequency: 'monthly',
    reference: 'sub-1',
    start_date: '2027-04-01',
  });
  const charge = await e.api.post('/v1/charges', { payment_method: pm, amount: 4, reference: 'charge-1' });
  for (const res of [r1, r2, invoice, link, schedule, charge]) if (res.status !== 201) throw new Error(`fixture not created: ${res.text}`);
  return {
    e,
    sessionId: session.body.data.id as string,
    refunds: [r1.body.data.id as string, r2.body.data.id as string],
    invoiceId: invoice.body.data.id as string,
    linkId: link.body.data.id as string,
    chargeId: charge.body.data.id as string,
  };
}

type World = Awaited<ReturnType<typeof world>>;

/** Every GET of /v1 that answers one resource or a list: path, type, list or not. */
const endpoints = (w: World) => [
  { path: '/v1/payments/order-1', type: 'payments' },
  { path: '/v1/payments', type: 'payments', list: true },
  { path: '/v1/payments/order-1/refunds', type: 'refunds', list: true },
  { path: `/v1/invoices/${w.invoiceId}`, type: 'invoices' },
  { path: '/v1/invoices', type: 'invoices', list: true },
  { path: `/v1/payment-links/${w.linkId}`, type: 'payment-links' },
  { path: '/v1/payment-links', type: 'payment-links', list: true },
  { path: '/v1/recurring-payments/sub-1', type: 'recurring-payments' },
  { path: '/v1/recurring-payments', type: 'recurring-payments', list: true },
  { path: `/v1/charges/${w.chargeId}`, type: 'charges' },
  { path: `/v1/sessions/${w.sessionId}`, type: 'sessions' },
  { path: '/v1/me', type: 'accounts' },
  { path: '/v1/tax/settings', type: 'tax-settings' },
];

type Shown = { id: string; type: string; attributes: Record<string, unknown>; relationships?: unknown };
const resources = (body: { data: unknown }) => (Array.isArray(body.data) ? body.data : [body.data]) as Shown[];
const sep = (path: string) => (path.includes('?') ? '&' : '?');

t.test('fields[<type>] limits the attributes of that type on single resources and lists alike', async (t) => {
  const w = await world(t);
  const { e } = w;
  await t.test('GET /v1/payments/{reference}?fields[payments]=amount,status', async (t) => {
    const res = await e.api.get('/v1/payments/order-1?fields[payments]=amount,status');
    t.equal(res.status, 200);
    t.same(res.body.data.attributes, { amount: '30.00', status: 'PARTIALLY_REFUNDED' });
    t.equal(res.body.data.id, '1', 'id, type and links stay');
    t.equal(res.body.data.type, 'payments');
    t.ok(res.body.data.links.self);
  });
  await t.test('include=refunds&fields[refunds]=amount limits the included refunds', async (t) => {
    const res = await e.api.get('/v1/payments/order-1?include=refunds&fields[refunds]=amount');
    t.equal(res.status, 200);
    t.same(
      res.body.included.map((r: { attributes: unknown }) => r.attributes),
      [{ amount: '5.00' }, { amount: '2.50' }],
    );
    t.equal(Object.keys(res.body.data.attributes).length > 5, true, 'the payment keeps every attribute');
  });
  await t.test('GET /v1/payments/{reference}/refunds?fields[refunds]=amount', async (t) => {
    const res = await e.api.get('/v1/payments/order-1/refunds?fields[refunds]=amount,reason');
    t.equal(res.status, 200);
    t.same(
      res.body.data.map((r: { id: string; attributes: unknown }) => [r.id, r.attributes]),
      [
        [w.refunds[0], { amount: '5.00', reason: 'damaged' }],
        [w.refunds[1], { amount: '2.50', reason: null }],
      ],
    );
    t.equal(res.body.meta.payment.refundable_amount, '22.50', 'meta is not a resource: untouched');
  });
  for (const endpoint of endpoints(w)) {
    await t.test(`GET ${endpoint.path}: every attribute it shows can be asked for, and only those come back`, async (t) => {
      const full = await e.api.get(endpoint.path);
      t.equal(full.status, 200);
      const shown = resources(full.body)[0]!;
      t.ok(shown, 'has a resource');
      t.equal(shown.type, endpoint.type);
      const names = Object.keys(shown.attributes);
      const all = await e.api.get(`${endpoint.path}${sep(endpoint.path)}fields[${endpoint.type}]=${names.join(',')}`);
      t.equal(all.status, 200, `fields[${endpoint.type}] takes every attribute shown: ${all.text.slice(0, 200)}`);
      t.same(resources(all.body)[0]!.attributes, shown.attributes);
      const two = names.slice(-2).reverse();
      const some = await e.api.get(`${endpoint.path}${sep(endpoint.path)}fields[${endpoint.type}]=${two.join(',')}`);
      t.equal(some.status, 200);
      for (const resource of resources(some.body)) t.same(Object.keys(resource.attributes), two, `${resource.id}: only ${two.join(', ')}`);
    });
  }
});

t.test('an unknown fields[...] attribute is a 422', async (t) => {
  const w = await world(t);
  for (const endpoint of endpoints(w)) {
    const res = await w.e.api.get(`${endpoint.path}${sep(endpoint.path)}fields[${endpoint.type}]=amount,colour`);
    assertError(t, res, 422, /colour/);
    t.ok(res.body.errors[0].meta.errors[`fields[${endpoint.type}]`], `GET ${endpoint.path}: names fields[${endpoint.type}]`);
    const other = await w.e.api.get(`${endpoint.path}${sep(endpoint.path)}fields[colours]=name`);
    assertError(t, other, 422);
    t.ok(other.body.errors[0].meta.errors['fields[colours]'], `GET ${endpoint.path}: a type the answer cannot hold is a 422 too`);
  }
  assertError(t, await w.e.api.get('/v1/payments/order-1?include=refunds&fields[refunds]=amount,colour'), 422, /colour/);
  assertError(t, await w.e.api.get('/v1/payments/nope?fields[payments]=colour'), 422);
});

t.test('an unknown include path is a 400', async (t) => {
  const w = await world(t);
  for (const endpoint of endpoints(w)) {
    for (const include of ['colour', 'refunds.payment', '']) {
      if (include === '' && endpoint.type !== 'payments') continue;
      const res = await w.e.api.get(`${endpoint.path}${sep(endpoint.path)}include=${include}`);
      assertError(t, res, 400, /include/i);
    }
    if (endpoint.type !== 'payments') assertError(t, await w.e.api.get(`${endpoint.path}${sep(endpoint.path)}include=refunds`), 400, /no relationships/);
  }
  assertError(t, await w.e.api.get('/v1/payments?include=refunds,colour'), 400, /"colour"/);
  assertError(t, await w.e.api.get('/v1/payments/order-1?include=refunds&include=refunds'), 400);
  t.equal((await w.e.api.get('/v1/payments?include=refunds')).status, 200, 'a known path is a 200');
});

t.test('included resources go in a top-level included array and the resource names them under relationships', async (t) => {
  const w = await world(t);
  const { e } = w;
  const linkage = w.refunds.map((id) => ({ type: 'refunds', id }));
  await t.test('the single payment', async (t) => {
    const res = await e.api.get('/v1/payments/order-1?include=refunds');
    t.same(res.body.data.relationships, { refunds: { data: linkage } });
    t.same(
      res.body.included.map((r: { type: string; id: string }) => ({ type: r.type, id: r.id })),
      linkage,
    );
    t.notOk('included' in (await e.api.get('/v1/payments/order-1')).body, 'no included without include');
    t.notOk('relationships' in (await e.api.get('/v1/payments/order-1')).body.data);
  });
  await t.test('the payments list', async (t) => {
    const res = await e.api.get('/v1/payments?include=refunds&sort=created_at');
    t.equal(res.status, 200);
    const [one, two, charge] = res.body.data;
    t.equal(one.attributes.reference, 'order-1');
    t.same(one.relationships, { refunds: { data: linkage } });
    t.same(two.relationships, { refunds: { data: [] } }, 'a payment without refunds names none');
    t.same(charge.relationships, { refunds: { data: [] } });
    t.same(Object.keys(one.attributes), ['reference', 'amount', 'currency', 'status', 'paid'], 'list items keep their usual attributes');
    t.same(
      res.body.included.map((r: { type: string; id: string }) => ({ type: r.type, id: r.id })),
      linkage,
    );
    t.same(res.body.included[0].attributes, { amount: '5.00', reason: 'damaged', status: 'completed', created_at: '2027-03-01T10:00:00.000000Z' });
    t.match(res.body.meta, { total: 3 }, 'links and meta stay');
    t.notOk('included' in (await e.api.get('/v1/payments')).body, 'no included without include');
  });
  await t.test('fields[refunds] limits the included refunds of the list', async (t) => {
    const res = await e.api.get('/v1/payments?include=refunds&fields[refunds]=amount&fields[payments]=reference,refunds');
    t.equal(res.status, 200);
    t.same(
      res.body.included.map((r: { attributes: unknown }) => r.attributes),
      [{ amount: '5.00' }, { amount: '2.50' }],
    );
    const order1 = res.body.data.find((p: { attributes: { reference: string } }) => p.attributes.reference === 'order-1');
    t.same(order1.attributes, { reference: 'order-1' });
    t.same(order1.relationships, { refunds: { data: linkage } });
  });
});

t.test('relationship names count as fields', async (t) => {
  const w = await world(t);
  const { e } = w;
  const linkage = w.refunds.map((id) => ({ type: 'refunds', id }));
  for (const path of ['/v1/payments/order-1', '/v1/payments?filter[status]=PARTIALLY_REFUNDED']) {
    await t.test(`GET ${path}`, async (t) => {
      const kept = await e.api.get(`${path}${sep(path)}fields[payments]=status,amount,refunds&include=refunds`);
      t.equal(kept.status, 200, kept.text.slice(0, 200));
      const payment = resources(kept.body)[0]!;
      t.same(payment.attributes, { status: 'PARTIALLY_REFUNDED', amount: '30.00' }, 'the relationship name is no attribute');
      t.same(payment.relationships, { refunds: { data: linkage } }, 'and keeps the relationship');
      const named = await e.api.get(`${path}${sep(path)}fields[payments]=status,refunds`);
      t.same(resources(named.body)[0]!.relationships, { refunds: { data: linkage } }, 'named without include: the linkage alone');
      t.notOk('included' in named.body);
      const left = await e.api.get(`${path}${sep(path)}fields[payments]=status&include=refunds`);
      t.notOk('relationships' in resources(left.body)[0]!, 'fields without the name leave the relationship out');
      t.equal(left.body.included.length, 2, 'but the included resources still come');
    });
  }
});
