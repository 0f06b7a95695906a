import t, { type Test } from 'tap';
import { assertError, emulator, type TestEmulator, savedCard } from './helpers/emulator.js';

const START = '2027-01-31T09:00:00Z';

async function setup(t: Test, card = '4242424242424242') {
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  const pm = await savedCard(e, card);
  const events: { name: string; data: Record<string, any>; at: number }[] = [];
  e.bus.on('domain', (ev) => events.push({ name: ev.name, data: ev.data, at: ev.at }));
  return { e, pm, events };
}

const get = async (e: TestEmulator, ref: string) => (await e.api.get(`/v1/recurring-payments/${ref}`)).body.data.attributes;
const advance = (e: TestEmulator, by: string) => e.api.post('/_payemu/clock/advance', { by });

t.test('create: 201 read shape; a schedule starting today is charged right away', async (t) => {
  const { e, pm, events } = await setup(t);
  const res = await e.api.post('/v1/recurring-payments', {
    payment_method: pm,
    amount: 19,
    frequency: 'monthly',
    reference: 'sub-1',
    customer_email: 'ada@example.com',
  });
  t.equal(res.status, 201);
  t.equal(res.body.data.type, 'recurring-payments');
  t.match(res.body.data.attributes, {
    reference: 'sub-1',
    amount: '19.00',
    currency: 'USD',
    frequency: 'monthly',
    interval_count: 1,
    status: 'active',
    retry_count: 0,
  });
  t.match(res.body.data.attributes.manage_url, new RegExp(`^${e.url}/manage/`));
  t.equal(res.body.data.links.self, `${e.url}/v1/recurring-payments/sub-1`);
  await advance(e, '0s');
  const after = await get(e, 'sub-1');
  t.equal(after.next_billing_date, '2027-02-28', 'Jan 31 -> Feb 28');
  t.same(
    events.map((x) => x.name),
    ['payment.completed', 'recurring.charged'],
  );
  t.match(events[1]!.data, { reference: 'sub-1', payment_reference: 'sub-1-0001', status: 'active', next_billing_date: '2027-02-28' });
  t.match(
    (await e.api.get('/v1/payments/sub-1-0001')).body.data.attributes,
    { status: 'PAID', amount: '19.00', created_at: '2027-01-31T09:00:00.000000Z', description: 'Recurring payment sub-1' },
    'due at 00:00, charged at 09:00 when it was created: never before it existed',
  );
});

t.test('monthly keeps its day: Jan 31 -> Feb 28 -> Mar 31 -> Apr 30', async (t) => {
  const { e, pm } = await setup(t);
  await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 5, frequency: 'monthly', reference: 'm' });
  const res = await advance(e, '90d');
  t.equal(res.body.ran['recurring.charge'], 3, 'the first charge ran right after creation');
  const refs = (await e.api.get('/v1/payments?sort=created_at')).body.data.map((p: any) => p.attributes.reference).filter((r: string) => r.startsWith('m-'));
  t.same(refs, ['m-0001', 'm-0002', 'm-0003', 'm-0004']);
  const created = await Promise.all(
    ['m-0002', 'm-0003', 'm-0004'].map(async (r) => (await e.api.get(`/v1/payments/${r}`)).body.data.attributes.created_at.slice(0, 10)),
  );
  t.same(created, ['2027-02-28', '2027-03-31', '2027-04-30']);
});

t.test('a daily schedule advanced 90 days charges 90 times, each dated on its day', async (t) => {
  const { e, pm, events } = await setup(t);
  await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 1, frequency: 'daily', reference: 'd', start_date: '2027-02-01' });
  const res = await advance(e, '90d');
  const charged = events.filter((x) => x.name === 'recurring.charged');
  t.equal(charged.length, 90);
  t.equal(new Date(charged[89]!.at).toISOString(), '2027-05-01T00:00:00.000Z', 'the bus dates each event on its own day, not the end of the advance');
  t.equal(res.body.ran['recurring.charge'], 90);
  t.equal(res.body.items[0].at, '2027-02-01T00:00:00.000000Z');
  t.equal((await e.api.get('/v1/payments/d-0090')).body.data.attributes.created_at, '2027-05-01T00:00:00.000000Z');
  t.equal((await get(e, 'd')).next_billing_date, '2027-05-02');
});

t.test('declines: retries after 1, 3 and 5 days, the fourth failure suspends', async (t) => {
  const { e, pm, events } = await setup(t, '4000000000000341');
  await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 9, frequency: 'monthly', reference: 'bad' });
  await advance(e, '0s');
  let s = await get(e, 'bad');
  t.match(s, { status: 'active', retry_count: 1, next_billing_date: '2027-02-01' });
  await advance(e, '1d');
  t.match(await get(e, 'bad'), { retry_count: 2, next_billing_date: '2027-02-04' });
  await advance(e, '3d');
  t.match(await get(e, 'bad'), { retry_count: 3, next_billing_date: '2027-02-09' });
  await advance(e, '5d');
  s = await get(e, 'bad');
  t.match(s, { status: 'suspended', retry_count: 4 });
  t.same(
    events.filter((x) => x.name.startsWith('recurring.')).map((x) => x.name),
    ['recurring.failed', 'recurring.failed', 'recurring.failed', 'recurring.failed', 'recurring.suspended'],
  );
  t.match(events.find((x) => x.name === 'recurring.failed')!.data, { payment_reference: 'bad-0001', failure_code: 'card_declined' });
  t.equal((await e.api.get('/v1/payments/bad-0001')).body.data.attributes.status, 'FAILED', 'every retry is an attempt on the same payment');
  const later = await advance(e, '60d');
  t.notOk(later.body.ran['recurring.charge'], 'a suspended schedule is not charged');
});

t.test('fails three times, then succeeds after a card update; billing returns to its cadence', async (t) => {
  const { e, pm, events } = await setup(t, '4000000000000341');
  await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 9, frequency: 'monthly', reference: 'fix' });
  await advance(e, '0s');
  await advance(e, '1d');
  await advance(e, '3d');
  t.match(await get(e, 'fix'), { retry_count: 3, status: 'active' });

  const session = await e.api.post('/v1/recurring-payments/fix/payment-method-session', {
    success_url: 'https://shop.example/card?x=1',
    cancel_url: 'https://shop.example/card',
  });
  t.equal(session.status, 201);
  t.equal(session.body.data.type, 'payment-method-sessions');
  t.match(session.body.data.id, /^cs_/);
  t.match(session.body.data.attributes, { recurring_reference: 'fix' });
  t.match(session.body.data.attributes.checkout_url, new RegExp(`^${e.url}/card-update/cs_`));
  const done = await e.api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: '4242424242424242' });
  t.equal(done.status, 200);
  t.match(done.body, { updated: true, payment_method: { card_last: '4242' }, recurring: { retry_count: 0, status: 'active' } });
  const updated = events.findIndex((x) => x.name === 'recurring.payment_method_updated');
  t.match(events[updated]!.data, { reference: 'fix', card_last: '4242' });
  t.equal((await e.api.get('/v1/payments/bad-0001')).status, 404);

  // The next processing run (right after the update) charges the new card once.
  await advance(e, '0s');
  t.same(
    events.slice(updated).map((x) => x.name),
    ['recurring.payment_method_updated', 'payment.completed', 'recurring.charged'],
  );
  t.match(await get(e, 'fix'), { status: 'active', retry_count: 0, next_billing_date: '2027-02-28' });
  t.equal((await e.api.get('/v1/payments/fix-0001')).body.data.attributes.status, 'PAID');
  assertError(t, await e.api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: '4242424242424242' }), 409);
});

t.test('a suspended schedule is reactivated by a card update; missed periods are not billed', async (t) => {
  const { e, pm } = await setup(t, '4000000000000341');
  await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 9, frequency: 'weekly', reference: 'susp' });
  await advance(e, '10d');
  t.equal((await get(e, 'susp')).status, 'suspended');
  await advance(e, '30d');
  const session = await e.api.post('/v1/recurring-payments/susp/payment-method-session', {});
  await e.api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: '4000002760003184', three_ds: 'pass' });
  await advance(e, '0s');
  const s = await get(e, 'susp');
  t.match(s, { status: 'active', retry_count: 0 });
  const paid = (await e.api.get('/v1/payments?filter[status]=PAID&page[size]=100')).body.data.map(
    (p: { attributes: { reference: string } }) => p.attributes.reference,
  );
  t.same(
    paid.filter((ref: string) => ref.startsWith('susp-')),
    ['susp-0001'],
    'one charge, no back-billing',
  );
});

t.test('a failed card update changes nothing', async (t) => {
  const { e, pm } = await setup(t);
  await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 9, frequency: 'monthly', reference: 'keep' });
  const session = await e.api.post('/v1/recurring-payments/keep/payment-method-session', {});
  const id = session.body.data.id;
  const declined = await e.api.post(`/_payemu/sessions/${id}/complete`, { card_number: '4000000000000002' });
  t.match(declined.body, { updated: false, failure_code: 'insufficient_funds' });
  const failed3ds = await e.api.post(`/_payemu/sessions/${id}/complete`, { card_number: '4000002760003184', three_ds: 'fail' });
  t.match(failed3ds.body, { updated: false, failure_code: 'authentication_failed' });
  t.equal((await get(e, 'keep')).payment_method, pm);
});

t.test('pause skips due dates; resume bills from the next billing date', async (t) => {
  const { e, pm, events } = await setup(t);
  await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 3, frequency: 'weekly', reference: 'p', start_date: '2027-02-01' });
  const paused = await e.api.post('/v1/recurring-payments/p/pause');
  t.equal(paused.status, 200);
  t.same(Object.keys(paused.body.data.attributes).sort(), ['reference', 'status']);
  t.equal(paused.body.data.attributes.status, 'paused');
  t.type(paused.body.meta.message, 'string');
  const skipped = await advance(e, '20d');
  t.notOk(skipped.body.ran['recurring.charge']);
  assertError(t, await e.api.post('/v1/recurring-payments/p/pause'), 422, /only active or suspended/);
  const resumed = await e.api.post('/v1/recurring-payments/p/resume');
  t.same(Object.keys(resumed.body.data.attributes).sort(), ['next_billing_date', 'reference', 'status']);
  t.match(resumed.body.data.attributes, { status: 'active', next_billing_date: '2027-02-22' });
  assertError(t, await e.api.post('/v1/recurring-payments/p/resume'), 422, /only paused/);
  t.same(
    events.filter((x) => x.name.startsWith('recurring.')).map((x) => x.name),
    ['recurring.paused', 'recurring.resumed'],
  );
});

t.test('cancel: cancelled_at, no further charges, and the 422s of a cancelled schedule', async (t) => {
  const { e, pm, events } = await setup(t);
  await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 3, frequency: 'daily', reference: 'c', start_date: '2027-02-01' });
  const res = await e.api.request('DELETE', '/v1/recurring-payments/c');
  t.equal(res.status, 200);
  t.same(Object.keys(res.body.data.attributes).sort(), ['cancelled_at', 'reference', 'status']);
  t.match(res.body.data.attributes, { status: 'cancelled', cancelled_at: '2027-01-31T09:00:00.000000Z' });
  t.equal(events.at(-1)!.name, 'recurring.cancelled');
  t.notOk((await advance(e, '5d')).body.ran['recurring.charge']);
  assertError(t, await e.api.request('DELETE', '/v1/recurring-payments/c'), 422, /already cancelled/);
  assertError(t, await e.api.request('PATCH', '/v1/recurring-payments/c', { amount: 5 }), 422, /cancelled and cannot be updated/);
  assertError(t, await e.api.post('/v1/recurring-payments/c/payment-method-session', {}), 422);
  assertError(t, await e.api.post('/v1/recurring-payments/c/pause'), 422);
  assertError(t, await e.api.post('/v1/recurring-payments/c/resume'), 422);
});

t.test('end_date: a charge due on or after it is not made; the schedule completes with recurring.updated', async (t) => {
  const { e, pm, events } = await setup(t);
  await e.api.post('/v1/recurring-payments', {
    payment_method: pm,
    amount: 3,
    frequency: 'daily',
    reference: 'e',
    start_date: '2027-02-01',
    end_date: '2027-02-04',
  });
  const res = await advance(e, '10d');
  t.equal(res.body.ran['recurring.charge'], 3);
  t.match(await get(e, 'e'), { status: 'completed', next_billing_date: null });
  t.match(events.at(-1), { name: 'recurring.updated', data: { status: 'completed', changed: ['status'] } });
  assertError(t, await e.api.request('PATCH', '/v1/recurring-payments/e', { amount: 5 }), 422, /completed/);
  assertError(t, await e.api.post('/v1/recurring-payments/e/payment-method-session', {}), 422);
  t.equal((await e.api.request('DELETE', '/v1/recurring-payments/e')).status, 200, 'a completed schedule can still be cancelled');
});

t.test('PATCH: every field, its rules, the answer shape and recurring.updated', async (t) => {
  const { e, pm, events } = await setup(t);
  await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 3, frequency: 'monthly', reference: 'u', start_date: '2027-02-15' });
  const res = await e.api.request('PATCH', '/v1/recurring-payments/u', {
    amount: 4.5,
    frequency: 'weekly',
    interval_count: 2,
    next_billing_date: '2027-03-01',
    end_date: '2027-12-31',
    customer_email: 'bob@example.com',
    customer_name: 'Bob',
    metadata: { plan: 'pro' },
    apply_tax: true,
  });
  t.equal(res.status, 200);
  t.same(Object.keys(res.body.data.attributes).sort(), ['amount', 'frequency', 'next_billing_date', 'reference', 'status']);
  t.match(res.body.data.attributes, { amount: '4.50', frequency: 'weekly', next_billing_date: '2027-03-01', status: 'active' });
  t.type(res.body.meta.message, 'string');
  t.match(await get(e, 'u'), {
    interval_count: 2,
    end_date: '2027-12-31',
    customer_email: 'bob@example.com',
    customer_name: 'Bob',
    metadata: { plan: 'pro' },
    apply_tax: true,
  });
  t.match(events.at(-1), { name: 'recurring.updated' });
  t.ok(events.at(-1)!.data.changed.includes('amount'));
  // metadata replaces entirely; end_date null removes it.
  await e.api.request('PATCH', '/v1/recurring-payments/u', { metadata: { b: 2 }, end_date: null });
  t.match(await get(e, 'u'), { metadata: { b: 2 }, end_date: null });
  t.notOk('plan' in (await get(e, 'u')).metadata);
  // Charges with apply_tax: 4.50 + 7.25 % = 4.83, every 2 weeks from Mar 1.
  await advance(e, '30d');
  t.equal((await e.api.get('/v1/payments/u-0001')).body.data.attributes.amount, '4.83');
  t.equal((await e.api.get('/v1/payments/u-0001')).body.data.attributes.created_at.slice(0, 10), '2027-03-01');
  t.equal((await get(e, 'u')).next_billing_date, '2027-03-15');

  const cases: [Record<string, unknown>, string][] = [
    [{ amount: 0 }, 'amount'],
    [{ frequency: 'hourly' }, 'frequency'],
    [{ interval_count: 0 }, 'interval_count'],
    [{ interval_count: 366 }, 'interval_count'],
    [{ next_billing_date: '2027-01-01' }, 'next_billing_date'],
    [{ next_billing_date: 'soon' }, 'next_billing_date'],
    [{ end_date: '2027-03-02' }, 'end_date'],
    [{ customer_email: 'nope' }, 'customer_email'],
    [{ customer_name: 'n'.repeat(256) }, 'customer_name'],
    [{ metadata: [] }, 'metadata'],
    [{ apply_tax: 'yes' }, 'apply_tax'],
  ];
  for (const [body, field] of cases) {
    const r = await e.api.request('PATCH', '/v1/recurring-payments/u', body);
    t.equal(r.status, 422, JSON.stringify(body));
    t.ok(r.body.errors[0].meta?.errors?.[field], `names ${field}`);
  }
  assertError(t, await e.api.request('PATCH', '/v1/recurring-payments/nope', {}), 404);
});

t.test('create refusals; list with filters and pagination; isolation', async (t) => {
  const { e, pm } = await setup(t);
  const bad: [Record<string, unknown>, string][] = [
    [{ amount: 1, frequency: 'daily' }, 'payment_method'],
    [{ payment_method: pm, frequency: 'daily' }, 'amount'],
    [{ payment_method: pm, amount: 1 }, 'frequency'],
    [{ payment_method: `pm_${'B'.repeat(24)}`, amount: 1, frequency: 'daily' }, 'payment_method'],
    [{ payment_method: pm, amount: 1, frequency: 'daily', start_date: '2027-01-30' }, 'start_date'],
    [{ payment_method: pm, amount: 1, frequency: 'daily', start_date: '2027-03-01', end_date: '2027-02-15' }, 'end_date'],
    [{ payment_method: pm, amount: 1, frequency: 'daily', interval_count: 400 }, 'interval_count'],
  ];
  for (const [body, field] of bad) {
    const r = await e.api.post('/v1/recurring-payments', body);
    t.equal(r.status, 422, JSON.stringify(body));
    t.ok(r.body.errors[0].meta?.errors?.[field], `names ${field}`);
  }
  await e.api.post('/v1/recurring-payments', {
    payment_method: pm,
    amount: 1,
    frequency: 'daily',
    reference: 'l1',
    customer_email: 'x@example.com',
    start_date: '2027-03-01',
  });
  assertError(t, await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 1, frequency: 'daily', reference: 'l1' }), 409);
  await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 2, frequency: 'daily', reference: 'l2', start_date: '2027-03-01' });
  await e.api.post('/v1/recurring-payments/l2/pause');
  const list = await e.api.get('/v1/recurring-payments');
  t.same(
    list.body.data.map((r: any) => r.id),
    ['l2', 'l1'],
  );
  t.same(list.body.meta, { current_page: 1, last_page: 1, per_page: 15, total: 2 });
  t.same(
    (await e.api.get('/v1/recurring-payments?filter[status]=paused')).body.data.map((r: any) => r.id),
    ['l2'],
  );
  t.same(
    (await e.api.get('/v1/recurring-payments?filter[customer_email]=x@example.com')).body.data.map((r: any) => r.id),
    ['l1'],
  );
  t.same(
    (await e.api.get('/v1/recurring-payments?page[size]=1&page[number]=2')).body.data.map((r: any) => r.id),
    ['l1'],
  );
  assertError(t, await e.api.get('/v1/recurring-payments?filter[status]=gone'), 422);
  assertError(t, await e.globex.get('/v1/recurring-payments/l1'), 404);
  t.equal((await e.live.get('/v1/recurring-payments')).body.meta.total, 0);
});

t.test('a recurring charge is stored lean and shown whole: automatic capture, nothing refunded, empty metadata', async (t) => {
  const { e, pm } = await setup(t);
  await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 5, frequency: 'daily', reference: 'lean' });
  await advance(e, '1d');
  const reference = 'lean-0001';
  const shown = (await e.api.get(`/v1/payments/${reference}`)).body.data.attributes;
  t.match(shown, { status: 'PAID', capture_method: 'automatic', metadata: {}, captured_at: START.replace('Z', '.000000Z') });
  // The export holds records as stored: what has its usual value is left out of them.
  const stored = (await e.api.get('/_payemu/snapshot')).body.data.payments.find((p: { reference: string }) => p.reference === reference);
  t.ok(stored, 'the payment is in the snapshot');
  t.notOk('capture_method' in stored || 'refunded' in stored || 'metadata' in stored, 'no default fields stored');
  // Refunds read a payment without `refunded` as nothing refunded.
  const refund = await e.api.post(`/v1/payments/${reference}/refunds`, { amount: 2 });
  t.equal(refund.status, 201);
  const after = (await e.api.get(`/v1/payments/${reference}`)).body.data.attributes;
  t.equal(after.status, 'PARTIALLY_REFUNDED');
  assertError(t, await e.api.post(`/v1/payments/${reference}/refunds`, { amount: 3.01 }), 422);
});
