import t from 'tap';
import { assertError, emulator } from '../helpers/emulator.js';

// The API's Payment link resource (request rules, create response, `active`/`usable`) and
// payemu's payment links (kinds, uses, products, turning off, reopening, list and get). Each
// test is titled with the sentence it checks. One emulator serves the file.

const e = await emulator(t, { clockStart: '2027-03-01T10:00:00Z', freezeClock: true });
const link = async (body: Record<string, unknown>) => e.api.post('/v1/payment-links', body);
const id = async (body: Record<string, unknown>) => (await link(body)).body.data.id as string;
const payLink = (linkId: string, card = '4242424242424242') => e.api.post(`/_payemu/payment-links/${linkId}/pay`, { card_number: card });
const read = async (linkId: string) => (await e.api.get(`/v1/payment-links/${linkId}`)).body.data.attributes;
const patch = (linkId: string, body: Record<string, unknown>) => e.api.request('PATCH', `/v1/payment-links/${linkId}`, body);

t.test('Create response: id (string), type payment-links, the attributes of the contract; links self and pay', async (t) => {
  const res = await link({ title: 'Donation', amount: 25 });
  t.equal(res.status, 201);
  t.match(res.body.data.id, /^\d+$/, 'an integer shown as a string');
  t.equal(res.body.data.type, 'payment-links');
  t.same(Object.keys(res.body.data.attributes).sort(), [
    'active',
    'amount',
    'cancel_url',
    'created_at',
    'currency',
    'description',
    'expires_at',
    'max_uses',
    'metadata',
    'products',
    'recurring',
    'success_url',
    'taxable',
    'test',
    'title',
    'type',
    'updated_at',
    'url',
    'usable',
    'uses_count',
  ]);
  t.match(res.body.data.attributes, {
    amount: '25.00',
    currency: 'USD',
    active: true,
    usable: true,
    uses_count: 0,
    taxable: false,
    test: true,
    description: null,
  });
  t.same(Object.keys(res.body.data.links).sort(), ['pay', 'self']);
  t.equal((await fetch(res.body.data.links.pay)).status, 200, 'links.pay serves a hosted page');
});

t.test('Link kind type: one_time (max_uses 1), limited (max_uses above 1), unlimited (no max_uses, max_uses null), recurring (has recurring)', async (t) => {
  t.match(await read(await id({ title: 'a', amount: 1, max_uses: 1 })), { type: 'one_time', max_uses: 1 });
  t.match(await read(await id({ title: 'b', amount: 1, max_uses: 3 })), { type: 'limited', max_uses: 3 });
  t.match(await read(await id({ title: 'c', amount: 1 })), { type: 'unlimited', max_uses: null });
  t.match(await read(await id({ title: 'd', amount: 1, recurring: { frequency: 'weekly' } })), { type: 'recurring', recurring: { frequency: 'weekly' } });
});

t.test('Request rules: each broken one is a 422 naming the field', async (t) => {
  const cases: [Record<string, unknown>, string][] = [
    [{ amount: 1 }, 'title'],
    [{ title: 't'.repeat(256), amount: 1 }, 'title'],
    [{ title: 'x', description: 'd'.repeat(5001), amount: 1 }, 'description'],
    [{ title: 'x' }, 'amount'],
    [{ title: 'x', amount: 0 }, 'amount'],
    [{ title: 'x', amount: 1_000_000 }, 'amount'],
    [{ title: 'x', amount: 1, currency: 'EU' }, 'currency'],
    [{ title: 'x', amount: 1, success_url: `https://x.example/${'a'.repeat(2048)}` }, 'success_url'],
    [{ title: 'x', amount: 1, max_uses: 0 }, 'max_uses'],
    [{ title: 'x', amount: 1, expires_at: '2027-02-01' }, 'expires_at'],
    [{ title: 'x', amount: 1, recurring: {} }, 'recurring.frequency'],
    [{ title: 'x', amount: 1, recurring: { frequency: 'monthly', interval_count: 366 } }, 'recurring.interval_count'],
    [{ title: 'x', amount: 1, recurring: { frequency: 'monthly', end_date: '2027-03-01' } }, 'recurring.end_date'],
    [{ title: 'x', amount: 1, metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, 'metadata'],
    [{ title: 'x', products: [] }, 'products'],
    [{ title: 'x', products: Array.from({ length: 51 }, () => ({ id: 1 })) }, 'products'],
    [{ title: 'x', products: [{ id: 1, quantity: 1001 }] }, 'products.0.quantity'],
    [{ title: 'x', products: [{ id: 99 }] }, 'products.0.id'],
    [{ title: 'x', amount: 1, active: false }, 'active'],
  ];
  for (const [body, field] of cases) {
    const res = await link(body);
    assertError(t, res, 422);
    t.ok(res.body.errors[0].meta?.errors?.[field], `${JSON.stringify(body).slice(0, 60)}: names ${field}`);
  }
  t.equal((await link({ title: 'x', amount: 1, metadata: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i])) })).status, 201, '50 keys');
});

t.test('Either amount or products: a 422 naming amount, in the same words whoever refuses it (the request schema expresses the rule)', async (t) => {
  const required = 'The amount field is required when products is not present.';
  const both = 'Pass either amount or products, not both.';
  const cases: [Record<string, unknown>, string][] = [
    [{ title: 'x' }, required],
    [{ title: 'x', amount: null }, required],
    [{ title: 'x', amount: 1, products: [{ id: 1 }] }, both],
    [{ title: 'x', amount: 0.01, products: [{ id: 1, quantity: 2 }] }, both],
  ];
  for (const [body, message] of cases) {
    const res = await link(body);
    assertError(t, res, 422);
    t.same(res.body.errors, [{ status: '422', title: 'Unprocessable Entity', detail: message, meta: { errors: { amount: [message] } } }], JSON.stringify(body));
  }
  t.equal((await link({ title: 'x', amount: null, products: [{ id: 1 }] })).status, 201, 'products, amount null');
  t.equal((await link({ title: 'x', products: [{ id: 1 }] })).status, 201, 'products');
  t.equal((await link({ title: 'x', amount: 1 })).status, 201, 'amount');
  // The other rules of the schema first: a body they refuse is refused for them.
  const res = await link({ title: 'x', amount: 'one', products: [{ id: 1 }] });
  assertError(t, res, 422);
  t.same(Object.keys(res.body.errors[0].meta.errors), ['amount']);
  t.notOk(res.body.errors[0].meta.errors.amount.includes(both), 'a string amount: its type, not both');
  // With another field's refusal, the rule's comes after it: the detail is the field's own.
  const untitled = await link({ amount: 1, products: [{ id: 1 }] });
  t.equal(untitled.body.errors[0].detail, 'The title field is required. (and 1 more error)');
  t.same(untitled.body.errors[0].meta.errors, { title: ['The title field is required.'], amount: [both] });
});

t.test('A products link costs the catalogue sum; products in another currency than the link are a 422', async (t) => {
  const res = await link({ title: 'Bundle', products: [{ id: 1, quantity: 2 }, { id: 3 }] });
  t.equal(res.body.data.attributes.amount, '54.99');
  assertError(t, await link({ title: 'Euro', currency: 'EUR', products: [{ id: 1 }] }), 422);
});

t.test('metadata is copied onto every payment made with the link and included in its webhooks', async (t) => {
  const events: { name: string; data: Record<string, any> }[] = [];
  const off = e.bus.on('domain', (ev) => events.push({ name: ev.name, data: ev.data }));
  const linkId = await id({ title: 'Meta', amount: 3, metadata: { campaign: 'spring' } });
  const paid = await payLink(linkId);
  off();
  t.match(paid.body.payment.metadata, { campaign: 'spring' });
  t.match(events.find((x) => x.name === 'payment.completed')!.data.metadata, { campaign: 'spring' });
});

t.test(
  'A use counts when a payment succeeds; the link is turned off after max_uses payments (active and usable false); a checkout opened since fails at payment with a 409',
  async (t) => {
    const linkId = await id({ title: 'Once', amount: 10, max_uses: 1 });
    const opened = await fetch(`${e.url}/pay/${linkId}`, { method: 'POST', redirect: 'manual' });
    const sessionId = opened.headers.get('location')!.split('/').pop();
    await payLink(linkId, '4000000000000002');
    t.equal((await read(linkId)).uses_count, 0, 'a declined payment is not a use');
    await payLink(linkId);
    t.match(await read(linkId), { uses_count: 1, active: false, usable: false });
    assertError(t, await e.api.post(`/_payemu/sessions/${sessionId}/complete`, { card_number: '4242424242424242' }), 409);
  },
);

t.test(
  'active false turns the link off (its payments are kept); true turns it on again; PATCH active true on a used-up link is a 422 unless the same PATCH raises max_uses',
  async (t) => {
    const linkId = await id({ title: 'Toggle', amount: 5, max_uses: 1 });
    t.match((await patch(linkId, { active: false })).body.data.attributes, { active: false, usable: false });
    assertError(t, await payLink(linkId), 409);
    t.match((await patch(linkId, { active: true })).body.data.attributes, { active: true, usable: true });
    await payLink(linkId);
    assertError(t, await patch(linkId, { active: true }), 422);
    t.match((await patch(linkId, { active: true, max_uses: 2 })).body.data.attributes, { active: true, usable: true, uses_count: 1 });
  },
);

t.test('The link is turned off at expires_at; PATCH active true is a 422 unless it moves expires_at', async (t) => {
  const linkId = await id({ title: 'Sale', amount: 5, expires_at: '2027-03-05' });
  await e.api.post('/_payemu/clock/advance', { by: '4d' });
  t.match(await read(linkId), { active: false, usable: false });
  assertError(t, await patch(linkId, { active: true }), 422);
  t.match((await patch(linkId, { active: true, expires_at: '2027-04-01' })).body.data.attributes, { active: true, usable: true });
});

t.test('PATCH: send only the fields to change; currency and products are create only (422); path id is an integer', async (t) => {
  const linkId = await id({ title: 'Patch me', amount: 5, description: 'keep' });
  const res = await patch(linkId, { title: 'Patched' });
  t.equal(res.status, 200);
  t.match(res.body.data.attributes, { title: 'Patched', description: 'keep', amount: '5.00' });
  assertError(t, await patch(linkId, { currency: 'EUR' }), 422);
  assertError(t, await patch(linkId, { products: [{ id: 1 }] }), 422);
  assertError(t, await patch('abc', { title: 'x' }), 404);
});

t.test('taxable adds tax from the team settings on top of the amount', async (t) => {
  const linkId = await id({ title: 'Taxed', amount: 100, taxable: true });
  t.equal((await payLink(linkId)).body.payment.amount, '107.25');
});

t.test('GET /v1/payment-links (paginated) and GET /v1/payment-links/{id}', async (t) => {
  const list = await e.api.get('/v1/payment-links?page[size]=2');
  t.equal(list.status, 200);
  t.equal(list.body.data.length, 2);
  t.equal(list.body.meta.per_page, 2);
  t.ok(list.body.meta.total > 2);
  assertError(t, await e.api.get('/v1/payment-links/99999'), 404);
});
