import t, { type Test } from 'tap';
import { assertError, emulator, type TestEmulator } from './helpers/emulator.js';

async function setup(t: Test) {
  const e = await emulator(t, { clockStart: '2027-03-01T10:00:00Z', freezeClock: true });
  const events: { name: string; data: Record<string, any> }[] = [];
  e.bus.on('domain', (ev) => events.push({ name: ev.name, data: ev.data }));
  return { e, events };
}

const link = (e: TestEmulator, body: Record<string, unknown>) => e.api.post('/v1/payment-links', body);
const payLink = (e: TestEmulator, id: string, card = '4242424242424242') => e.api.post(`/_payemu/payment-links/${id}/pay`, { card_number: card });

t.test('create: SPEC.md attributes, kinds and links', async (t) => {
  const { e } = await setup(t);
  const res = await link(e, { title: 'Donation', amount: 25, metadata: { campaign: 'spring' } });
  t.equal(res.status, 201);
  const data = res.body.data;
  t.equal(data.id, '1');
  t.equal(data.type, 'payment-links');
  t.same(data.attributes, {
    url: `${e.url}/pay/1`,
    title: 'Donation',
    description: null,
    type: 'unlimited',
    amount: '25.00',
    currency: 'USD',
    active: true,
    usable: true,
    uses_count: 0,
    max_uses: null,
    expires_at: null,
    taxable: false,
    recurring: null,
    products: [],
    metadata: { campaign: 'spring' },
    success_url: null,
    cancel_url: null,
    test: true,
    created_at: '2027-03-01T10:00:00.000000Z',
    updated_at: '2027-03-01T10:00:00.000000Z',
  });
  t.same(data.links, { self: `${e.url}/v1/payment-links/1`, pay: `${e.url}/pay/1` });
  t.equal((await link(e, { title: 'Once', amount: 1, max_uses: 1 })).body.data.attributes.type, 'one_time');
  t.equal((await link(e, { title: 'Few', amount: 1, max_uses: 3 })).body.data.attributes.type, 'limited');
  const sub = await link(e, { title: 'Sub', amount: 9, recurring: { frequency: 'monthly' } });
  t.match(sub.body.data.attributes, { type: 'recurring', recurring: { frequency: 'monthly', interval_count: null, end_date: null } });
  t.equal((await e.live.post('/v1/payment-links', { title: 'Live', amount: 1 })).body.data.attributes.test, false);
});

t.test('products: the catalogue sum; unknown ids and other currencies are 422s naming the item', async (t) => {
  const { e } = await setup(t);
  const res = await link(e, { title: 'Bundle', products: [{ id: 1, quantity: 2 }, { id: 3 }] });
  t.match(res.body.data.attributes, {
    amount: '54.99',
    products: [
      { id: 1, name: 'Acme T-shirt', quantity: 2, unit_price: '25.00', amount: '50.00' },
      { id: 3, name: 'Acme Sticker Pack', quantity: 1, unit_price: '4.99', amount: '4.99' },
    ],
  });
  const unknown = await link(e, { title: 'X', products: [{ id: 1 }, { id: 99 }] });
  assertError(t, unknown, 422, /no product 99/);
  t.ok(unknown.body.errors[0].meta.errors['products.1.id']);
  const euro = await link(e, { title: 'X', currency: 'EUR', products: [{ id: 1 }] });
  assertError(t, euro, 422, /priced in USD/);
  const paid = await payLink(e, res.body.data.id);
  t.equal(paid.body.payment.amount, '54.99');
});

t.test('every field rule is a 422', async (t) => {
  const { e } = await setup(t);
  const cases: [Record<string, unknown>, string][] = [
    [{ amount: 1 }, 'title'],
    [{ title: 't'.repeat(256), amount: 1 }, 'title'],
    [{ title: 'x', description: 'd'.repeat(5001), amount: 1 }, 'description'],
    [{ title: 'x' }, 'amount'],
    [{ title: 'x', amount: 1, products: [{ id: 1 }] }, 'amount'],
    [{ title: 'x', amount: 0 }, 'amount'],
    [{ title: 'x', amount: 1000000 }, 'amount'],
    [{ title: 'x', amount: 1, currency: 'EU' }, 'currency'],
    [{ title: 'x', amount: 1, success_url: `https://x.example/${'a'.repeat(2048)}` }, 'success_url'],
    [{ title: 'x', amount: 1, cancel_url: 'nope' }, 'cancel_url'],
    [{ title: 'x', amount: 1, max_uses: 0 }, 'max_uses'],
    [{ title: 'x', amount: 1, expires_at: '2027-02-01' }, 'expires_at'],
    [{ title: 'x', amount: 1, expires_at: 'later' }, 'expires_at'],
    [{ title: 'x', amount: 1, taxable: 'yes' }, 'taxable'],
    [{ title: 'x', amount: 1, recurring: {} }, 'recurring.frequency'],
    [{ title: 'x', amount: 1, recurring: { frequency: 'monthly', interval_count: 366 } }, 'recurring.interval_count'],
    [{ title: 'x', amount: 1, recurring: { frequency: 'monthly', end_date: '2027-03-01' } }, 'recurring.end_date'],
    [{ title: 'x', amount: 1, metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, 'metadata'],
    [{ title: 'x', products: [] }, 'products'],
    [{ title: 'x', products: Array.from({ length: 51 }, () => ({ id: 1 })) }, 'products'],
    [{ title: 'x', products: [{ id: 1, quantity: 1001 }] }, 'products.0.quantity'],
    [{ title: 'x', products: [{ quantity: 1 }] }, 'products.0.id'],
    [{ title: 'x', amount: 1, active: false }, 'active'],
  ];
  for (const [body, field] of cases) {
    const res = await link(e, body);
    t.equal(res.status, 422, JSON.stringify(body).slice(0, 70));
    t.ok(res.body.errors[0].meta?.errors?.[field], `names ${field}: ${JSON.stringify(res.body.errors[0].meta?.errors)}`);
  }
  t.equal((await e.api.get('/v1/payment-links')).body.meta.total, 0);
});

t.test('uses: a one-time link turns off after its payment; a checkout opened before fails with 409', async (t) => {
  const { e, events } = await setup(t);
  const id = (await link(e, { title: 'Once', amount: 10, max_uses: 1, metadata: { order: 'L-1' } })).body.data.id;
  // A checkout opened from the page, not yet paid.
  const opened = await fetch(`${e.url}/pay/${id}`, { method: 'POST', redirect: 'manual' });
  t.equal(opened.status, 303);
  const checkout = opened.headers.get('location')!;
  const declined = await payLink(e, id, '4000000000000002');
  t.equal(declined.body.payment.status, 'FAILED');
  t.equal((await e.api.get(`/v1/payment-links/${id}`)).body.data.attributes.uses_count, 0, 'a failed payment is not a use');
  const paid = await payLink(e, id);
  t.equal(paid.body.payment.status, 'PAID');
  t.match(paid.body.payment.metadata, { order: 'L-1' });
  t.match(events.find((x) => x.name === 'payment.completed')!.data.metadata, { order: 'L-1' }, 'the link metadata is in the webhook');
  t.match((await e.api.get(`/v1/payment-links/${id}`)).body.data.attributes, { uses_count: 1, active: false, usable: false });
  const sessionId = checkout.split('/').pop();
  assertError(t, await e.api.post(`/_payemu/sessions/${sessionId}/complete`, { card_number: '4242424242424242' }), 409, /used up or turned off/);
  assertError(t, await payLink(e, id), 409);
  t.equal((await fetch(`${e.url}/pay/${id}`)).status, 410, 'the page says it is no longer available');
});

t.test('PATCH: active off and on, create-only fields, reopening rules', async (t) => {
  const { e } = await setup(t);
  const id = (await link(e, { title: 'Few', amount: 5, max_uses: 1 })).body.data.id;
  const off = await e.api.request('PATCH', `/v1/payment-links/${id}`, { active: false, title: 'Fewer' });
  t.match(off.body.data.attributes, { active: false, usable: false, title: 'Fewer' });
  assertError(t, await payLink(e, id), 409);
  t.match((await e.api.request('PATCH', `/v1/payment-links/${id}`, { active: true })).body.data.attributes, { active: true, usable: true });
  await payLink(e, id);
  assertError(t, await e.api.request('PATCH', `/v1/payment-links/${id}`, { active: true }), 422, /raise max_uses/);
  t.match((await e.api.request('PATCH', `/v1/payment-links/${id}`, { active: true, max_uses: 2 })).body.data.attributes, {
    active: true,
    usable: true,
    type: 'limited',
  });
  assertError(t, await e.api.request('PATCH', `/v1/payment-links/${id}`, { currency: 'EUR' }), 422, /only be set when the link is created/);
  assertError(t, await e.api.request('PATCH', `/v1/payment-links/${id}`, { products: [{ id: 1 }] }), 422);
  assertError(t, await e.api.request('PATCH', '/v1/payment-links/999', { title: 'x' }), 404);
  assertError(t, await e.api.request('PATCH', '/v1/payment-links/abc', { title: 'x' }), 404);
  assertError(t, await e.globex.get(`/v1/payment-links/${id}`), 404);
});

t.test('expires_at: the clock turns the link off; moving expires_at reopens it', async (t) => {
  const { e } = await setup(t);
  const id = (await link(e, { title: 'Sale', amount: 5, expires_at: '2027-03-05' })).body.data.id;
  const res = await e.api.post('/_payemu/clock/advance', { by: '4d' });
  t.equal(res.body.ran['payment_link.expired'], 1);
  t.match((await e.api.get(`/v1/payment-links/${id}`)).body.data.attributes, { active: false, usable: false });
  assertError(t, await e.api.request('PATCH', `/v1/payment-links/${id}`, { active: true }), 422);
  t.match((await e.api.request('PATCH', `/v1/payment-links/${id}`, { active: true, expires_at: '2027-04-01' })).body.data.attributes, {
    active: true,
    usable: true,
  });
});

t.test('taxable adds the team tax on top', async (t) => {
  const { e } = await setup(t);
  const id = (await link(e, { title: 'Taxed', amount: 100, taxable: true })).body.data.id;
  t.equal((await payLink(e, id)).body.payment.amount, '107.25');
  t.match(await (await fetch(`${e.url}/pay/${id}`)).text(), /107\.25 USD/);
});

t.test('a recurring link starts its schedule after the first payment', async (t) => {
  const { e, events } = await setup(t);
  const id = (await link(e, { title: 'Monthly box', amount: 19, recurring: { frequency: 'monthly' }, metadata: { plan: 'box' } })).body.data.id;
  const paid = await payLink(e, id);
  t.equal(paid.body.payment.status, 'PAID');
  const schedules = (await e.api.get('/v1/recurring-payments')).body.data;
  t.equal(schedules.length, 1);
  t.match(schedules[0].attributes, { amount: '19.00', frequency: 'monthly', status: 'active', next_billing_date: '2027-04-01', metadata: { plan: 'box' } });
  t.match(schedules[0].attributes.payment_method, /^pm_/);
  const res = await e.api.post('/_payemu/clock/advance', { by: '31d' });
  t.equal(res.body.ran['recurring.charge'], 1);
  t.ok(events.some((x) => x.name === 'recurring.charged'));
});

t.test('list and get', async (t) => {
  const { e } = await setup(t);
  await link(e, { title: 'A', amount: 1 });
  await link(e, { title: 'B', amount: 2 });
  const list = await e.api.get('/v1/payment-links');
  t.same(
    list.body.data.map((l: any) => l.id),
    ['2', '1'],
  );
  t.same(list.body.meta, { current_page: 1, last_page: 1, per_page: 15, total: 2 });
  t.same(
    (await e.api.get('/v1/payment-links?sort=title&page[size]=1')).body.data.map((l: any) => l.attributes.title),
    ['A'],
  );
  t.equal((await e.api.get('/v1/payment-links/1')).body.data.attributes.title, 'A');
  t.equal((await e.globex.get('/v1/payment-links')).body.meta.total, 0);
});
