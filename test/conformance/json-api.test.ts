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
    customer_name: 'Ada', customer_email: 'ada@example.com', currency: 'USD', due_date: '2027-03-10', items: [{ description: 'Work', quantity: 1, unit_price: 10 }],
  });
  const link = await e.api.post('/v1/payment-links', { title: 'Mug', amount: 12.5 });
  const schedule = await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 9, frequency: 'monthly', reference: 'sub-1', start_date: '2027-04-01' });
  const charge = await e.api.post('/v1/charges', { payment_method: pm, amount: 4, reference: 'charge-1' });
  for (const res of [r1, r2, invoice, link, schedule, charge]) if (res.status !== 201) throw new Error(`fixture not created: ${res.text}`);
  return { e, sessionId: session.body.data.id as string, refunds: [r1.body.data.id as string, r2.body.data.id as string], invoiceId: invoice.body.data.id as string, linkId: link.body.data.id as string, chargeId: charge.body.data.id as string };
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

const resources = (body: { data: unknown }) => (Array.isArray(body.data) ? body.data : [body.data]) as { id: string; type: string; attributes: Record<string, unknown> }[];
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
    t.same(res.body.included.map((r: { attributes: unknown }) => r.attributes), [{ amount: '5.00' }, { amount: '2.50' }]);
    t.equal(Object.keys(res.body.data.attributes).length > 5, true, 'the payment keeps every attribute');
  });
  await t.test('GET /v1/payments/{reference}/refunds?fields[refunds]=amount', async (t) => {
    const res = await e.api.get('/v1/payments/order-1/refunds?fields[refunds]=amount,reason');
    t.equal(res.status, 200);
    t.same(res.body.data.map((r: { id: string; attributes: unknown }) => [r.id, r.attributes]), [[w.refunds[0], { amount: '5.00', reason: 'damaged' }], [w.refunds[1], { amount: '2.50', reason: null }]]);
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
