import t, { type Test } from 'tap';
import { assertError, emulator, pay, type TestEmulator } from '../helpers/emulator.js';

// The API's Recurring payment resource, its endpoints and transitions, and the payment-method
// update session; payemu's schedules (create, list, charges at 00:00 UTC, retries after 1, 3 and
// 5 days, suspension, card update, end_date, pause) and their events. Each test is titled with
// the sentence it checks. Tests that move the clock get their own emulator.

const START = '2027-01-31T09:00:00Z';

async function setup(t: Test, card = '4242424242424242') {
  const e = await emulator(t, { clockStart: START, freezeClock: true });
  const pm = (await pay(e, { amount: 1, save_payment_method: true }, card)).completed.body.payment.payment_method as string;
  const events: { name: string; data: Record<string, any> }[] = [];
  e.bus.on('domain', (ev) => events.push({ name: ev.name, data: ev.data }));
  const recurring = (name: string) => events.filter((x) => x.name.startsWith('recurring.') && x.data.reference === name).map((x) => x.name);
  return { e, pm, events, recurring };
}
const read = async (e: TestEmulator, ref: string) => (await e.api.get(`/v1/recurring-payments/${ref}`)).body.data.attributes;
const advance = (e: TestEmulator, by: string) => e.api.post('/_payemu/clock/advance', { by });
const create = (e: TestEmulator, body: Record<string, unknown>) => e.api.post('/v1/recurring-payments', body);

t.test(
  'POST /v1/recurring-payments (201, the read shape): reference, amount (string), currency, frequency, interval_count, status, next_billing_date, retry_count, manage_url; links.self; defaults currency, interval_count 1, reference rp_ + 16 base62',
  async (t) => {
    const { e, pm } = await setup(t);
    const res = await create(e, { payment_method: pm, amount: 19, frequency: 'monthly', start_date: '2027-02-10' });
    t.equal(res.status, 201);
    t.equal(res.body.data.type, 'recurring-payments');
    const a = res.body.data.attributes;
    t.match(a, {
      amount: '19.00',
      currency: 'USD',
      frequency: 'monthly',
      interval_count: 1,
      status: 'active',
      next_billing_date: '2027-02-10',
      retry_count: 0,
    });
    t.match(a.reference, /^rp_[0-9A-Za-z]{16}$/);
    t.match(a.manage_url, /^http:\/\//);
    t.equal(res.body.data.links.self, `${e.url}/v1/recurring-payments/${a.reference}`);
    t.same((await e.api.get(`/v1/recurring-payments/${a.reference}`)).body.data.attributes, a, 'GET returns the same schedule');
    assertError(t, await e.api.get('/v1/recurring-payments/none'), 404);
  },
);

t.test(
  'payment_method is required: a pm_ saved by a session with save_payment_method: true; amount and frequency are required; start_date today or later',
  async (t) => {
    const { e, pm } = await setup(t);
    for (const [body, field] of [
      [{ amount: 1, frequency: 'daily' }, 'payment_method'],
      [{ payment_method: 'pm_unknown', amount: 1, frequency: 'daily' }, 'payment_method'],
      [{ payment_method: pm, frequency: 'daily' }, 'amount'],
      [{ payment_method: pm, amount: 1 }, 'frequency'],
      [{ payment_method: pm, amount: 1, frequency: 'hourly' }, 'frequency'],
      [{ payment_method: pm, amount: 1, frequency: 'daily', interval_count: 366 }, 'interval_count'],
      [{ payment_method: pm, amount: 1, frequency: 'daily', start_date: '2027-01-30' }, 'start_date'],
    ] as [Record<string, unknown>, string][]) {
      const res = await create(e, body);
      assertError(t, res, 422);
      t.ok(res.body.errors[0].meta?.errors?.[field], `names ${field}`);
    }
  },
);

t.test(
  'Each charge falls due at 00:00 UTC of its billing date, so a schedule starting today is charged right after it is created: a PAID payment and recurring.charged',
  async (t) => {
    const { e, pm, events } = await setup(t);
    await create(e, { payment_method: pm, amount: 9, frequency: 'monthly', reference: 'today' });
    await advance(e, '0s');
    t.same(
      events.map((x) => x.name),
      ['payment.completed', 'recurring.charged'],
      'payment.completed, then recurring.charged',
    );
    t.match(
      events[1]!.data,
      { reference: 'today', payment_reference: 'today-0001', status: 'active' },
      'data.reference is the schedule, data.payment_reference the charge',
    );
    t.match((await e.api.get('/v1/payments/today-0001')).body.data.attributes, { status: 'PAID', created_at: '2027-01-31T09:00:00.000000Z' });
    t.equal((await read(e, 'today')).next_billing_date, '2027-02-28');
  },
);

t.test(
  'A decline gives recurring.failed, retry_count + 1 and a retry 1, 3 and 5 days after the previous failure, shown as next_billing_date, status staying active; a fourth failure suspends it (recurring.suspended)',
  async (t) => {
    const { e, pm, recurring, events } = await setup(t, '4000000000000341');
    await create(e, { payment_method: pm, amount: 9, frequency: 'monthly', reference: 'bad' });
    await advance(e, '0s');
    t.match(await read(e, 'bad'), { status: 'active', retry_count: 1, next_billing_date: '2027-02-01' });
    await advance(e, '1d');
    t.match(await read(e, 'bad'), { status: 'active', retry_count: 2, next_billing_date: '2027-02-04' });
    await advance(e, '3d');
    t.match(await read(e, 'bad'), { status: 'active', retry_count: 3, next_billing_date: '2027-02-09' });
    await advance(e, '5d');
    t.match(await read(e, 'bad'), { status: 'suspended', retry_count: 4 });
    t.same(recurring('bad'), ['recurring.failed', 'recurring.failed', 'recurring.failed', 'recurring.failed', 'recurring.suspended']);
    t.same(
      events.filter((x) => x.data.reference === 'bad-0001').map((x) => x.name),
      ['payment.failed', 'payment.failed', 'payment.failed', 'payment.failed'],
      'payment.failed before each recurring.failed',
    );
    t.notOk((await advance(e, '60d')).body.ran['recurring.charge'], 'a suspended schedule is not charged');
  },
);

t.test('One advance runs every retry due within the advanced span, in order', async (t) => {
  const { e, pm, recurring } = await setup(t, '4000000000000341');
  await create(e, { payment_method: pm, amount: 9, frequency: 'monthly', reference: 'span' });
  await advance(e, '0s');
  t.equal((await read(e, 'span')).retry_count, 1, 'the first charge failed');
  const res = await advance(e, '10d');
  t.equal(res.body.ran['recurring.charge'], 3, 'the three retries, in one advance');
  t.same(
    res.body.items.filter((x: { kind: string }) => x.kind === 'recurring.charge').map((x: { at: string }) => x.at),
    ['2027-02-01T00:00:00.000000Z', '2027-02-04T00:00:00.000000Z', '2027-02-09T00:00:00.000000Z'],
    'each at its own time, in order',
  );
  t.same(recurring('span'), ['recurring.failed', 'recurring.failed', 'recurring.failed', 'recurring.failed', 'recurring.suspended']);
});

t.test(
  'A success resets retry_count and billing returns to the original cadence (after a card update, charged once on the next processing run; missed periods are not billed)',
  async (t) => {
    const { e, pm, recurring } = await setup(t, '4000000000000341');
    await create(e, { payment_method: pm, amount: 9, frequency: 'weekly', reference: 'fix' });
    await advance(e, '10d');
    t.equal((await read(e, 'fix')).status, 'suspended');
    await advance(e, '30d');
    const session = await e.api.post('/v1/recurring-payments/fix/payment-method-session', {});
    t.equal(session.status, 201);
    const done = await e.api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: '4242424242424242' });
    t.equal(done.status, 200);
    t.match(await read(e, 'fix'), { status: 'active', retry_count: 0 }, 'a card update resets retry_count and reactivates a suspended schedule');
    await advance(e, '0s');
    t.match(await read(e, 'fix'), { status: 'active', retry_count: 0 });
    t.same(recurring('fix').slice(-2), ['recurring.payment_method_updated', 'recurring.charged']);
    const paid = (await e.api.get('/v1/payments?filter[status]=PAID&page[size]=100')).body.data.map((p: any) => p.attributes.reference);
    t.same(
      paid.filter((r: string) => r.startsWith('fix-')),
      ['fix-0001'],
      'one charge, no back-billing',
    );
  },
);

t.test(
  'Payment method update session: id cs_, type payment-method-sessions, recurring_reference, checkout_url, expires_at; success emits recurring.payment_method_updated; 422 when the schedule is cancelled or completed',
  async (t) => {
    const { e, pm, recurring } = await setup(t);
    await create(e, { payment_method: pm, amount: 9, frequency: 'monthly', reference: 'card', start_date: '2027-03-01' });
    const res = await e.api.post('/v1/recurring-payments/card/payment-method-session', {
      success_url: 'https://shop.example/ok',
      cancel_url: 'https://shop.example/no',
    });
    t.equal(res.status, 201);
    t.match(res.body.data.id, /^cs_[0-9A-Za-z]{24}$/);
    t.equal(res.body.data.type, 'payment-method-sessions');
    t.match(res.body.data.attributes, { recurring_reference: 'card', checkout_url: /^http:\/\//, expires_at: /\.\d{6}Z$/ });
    await e.api.post(`/_payemu/sessions/${res.body.data.id}/complete`, { card_number: '5555555555554444' });
    t.same(recurring('card'), ['recurring.payment_method_updated']);
    t.equal((await e.api.get('/v1/payments')).body.meta.total, 1, 'nothing is charged: only the payment that saved the first card');
    await e.api.request('DELETE', '/v1/recurring-payments/card');
    assertError(t, await e.api.post('/v1/recurring-payments/card/payment-method-session', {}), 422);
  },
);

t.test(
  'pause: active or suspended -> paused, attributes reference, status, meta.message; a paused schedule skips due dates; resume: paused -> active, attributes reference, status, next_billing_date; 422 otherwise',
  async (t) => {
    const { e, pm, recurring } = await setup(t);
    await create(e, { payment_method: pm, amount: 3, frequency: 'weekly', reference: 'p', start_date: '2027-02-01' });
    const paused = await e.api.post('/v1/recurring-payments/p/pause');
    t.equal(paused.status, 200);
    t.same(Object.keys(paused.body.data.attributes).sort(), ['reference', 'status']);
    t.equal(paused.body.data.attributes.status, 'paused');
    t.type(paused.body.meta.message, 'string');
    t.notOk((await advance(e, '20d')).body.ran['recurring.charge'], 'no charges until resumed');
    assertError(t, await e.api.post('/v1/recurring-payments/p/pause'), 422);
    const resumed = await e.api.post('/v1/recurring-payments/p/resume');
    t.same(Object.keys(resumed.body.data.attributes).sort(), ['next_billing_date', 'reference', 'status']);
    t.match(
      resumed.body.data.attributes,
      { status: 'active', next_billing_date: '2027-02-22' },
      'billing resumes from the next billing date; missed dates are not billed',
    );
    t.type(resumed.body.meta.message, 'string');
    assertError(t, await e.api.post('/v1/recurring-payments/p/resume'), 422);
    t.same(recurring('p'), ['recurring.paused', 'recurring.resumed']);
  },
);

t.test(
  'DELETE cancels: attributes reference, status, cancelled_at; meta.message; recurring.cancelled; no further charges; 422 already cancelled; a cancelled schedule cannot be updated, paused or resumed',
  async (t) => {
    const { e, pm, recurring } = await setup(t);
    await create(e, { payment_method: pm, amount: 3, frequency: 'daily', reference: 'c', start_date: '2027-02-01' });
    const res = await e.api.request('DELETE', '/v1/recurring-payments/c');
    t.equal(res.status, 200);
    t.same(Object.keys(res.body.data.attributes).sort(), ['cancelled_at', 'reference', 'status']);
    t.match(res.body.data.attributes, { status: 'cancelled', cancelled_at: '2027-01-31T09:00:00.000000Z' });
    t.type(res.body.meta.message, 'string');
    t.same(recurring('c'), ['recurring.cancelled']);
    t.notOk((await advance(e, '5d')).body.ran['recurring.charge']);
    assertError(t, await e.api.request('DELETE', '/v1/recurring-payments/c'), 422);
    assertError(t, await e.api.request('PATCH', '/v1/recurring-payments/c', { amount: 5 }), 422);
    assertError(t, await e.api.post('/v1/recurring-payments/c/pause'), 422);
    assertError(t, await e.api.post('/v1/recurring-payments/c/resume'), 422);
  },
);

t.test(
  'A charge due on or after end_date is not made: the schedule is completed; reaching completed emits recurring.updated; a completed schedule cannot be updated',
  async (t) => {
    const { e, pm, recurring } = await setup(t);
    await create(e, { payment_method: pm, amount: 3, frequency: 'daily', reference: 'end', start_date: '2027-02-01', end_date: '2027-02-04' });
    const res = await advance(e, '10d');
    t.equal(res.body.ran['recurring.charge'], 3, 'Feb 1, 2 and 3; not Feb 4');
    t.equal((await read(e, 'end')).status, 'completed');
    t.same(recurring('end'), ['recurring.charged', 'recurring.charged', 'recurring.charged', 'recurring.updated']);
    assertError(t, await e.api.request('PATCH', '/v1/recurring-payments/end', { amount: 5 }), 422);
    assertError(t, await e.api.post('/v1/recurring-payments/end/payment-method-session', {}), 422);
  },
);

t.test(
  'PATCH: all body fields optional; success data reference, amount, frequency, status, next_billing_date, links.self, meta.message; recurring.updated; metadata replaces existing metadata entirely; end_date null removes it',
  async (t) => {
    const { e, pm, recurring } = await setup(t);
    await create(e, {
      payment_method: pm,
      amount: 3,
      frequency: 'monthly',
      reference: 'u',
      start_date: '2027-02-15',
      metadata: { a: 1 },
      end_date: '2027-12-31',
    });
    const res = await e.api.request('PATCH', '/v1/recurring-payments/u', { amount: 4.5, metadata: { b: 2 }, end_date: null });
    t.equal(res.status, 200);
    t.same(Object.keys(res.body.data.attributes).sort(), ['amount', 'frequency', 'next_billing_date', 'reference', 'status']);
    t.match(res.body.data.attributes, { reference: 'u', amount: '4.50', frequency: 'monthly', status: 'active', next_billing_date: '2027-02-15' });
    t.equal(res.body.data.links.self, `${e.url}/v1/recurring-payments/u`);
    t.type(res.body.meta.message, 'string');
    t.match(await read(e, 'u'), { metadata: { b: 2 }, end_date: null });
    t.notOk('a' in (await read(e, 'u')).metadata);
    t.same(recurring('u'), ['recurring.updated']);
    for (const [body, field] of [
      [{ amount: 0 }, 'amount'],
      [{ interval_count: 366 }, 'interval_count'],
      [{ next_billing_date: '2027-01-30' }, 'next_billing_date'],
      [{ end_date: '2027-01-31' }, 'end_date'],
      [{ customer_email: 'nope' }, 'customer_email'],
    ] as [Record<string, unknown>, string][]) {
      const r = await e.api.request('PATCH', '/v1/recurring-payments/u', body);
      assertError(t, r, 422);
      t.ok(r.body.errors[0].meta?.errors?.[field], `names ${field}`);
    }
  },
);

t.test('GET /v1/recurring-payments lists them (filters status, customer_email; paginated)', async (t) => {
  const { e, pm } = await setup(t);
  await create(e, { payment_method: pm, amount: 1, frequency: 'daily', reference: 'l1', customer_email: 'x@example.com', start_date: '2027-03-01' });
  await create(e, { payment_method: pm, amount: 1, frequency: 'daily', reference: 'l2', start_date: '2027-03-01' });
  await e.api.post('/v1/recurring-payments/l2/pause');
  const ids = async (query: string) => (await e.api.get(`/v1/recurring-payments?${query}`)).body.data.map((r: any) => r.id);
  t.same(await ids(''), ['l2', 'l1']);
  t.same(await ids('filter[status]=paused'), ['l2']);
  t.same(await ids('filter[customer_email]=x@example.com'), ['l1']);
  t.same(await ids('page[size]=1&page[number]=2'), ['l1']);
});

t.test('pause: from active or suspended; resume: paused -> active, billing resumes from the next billing date', async (t) => {
  const { e, pm } = await setup(t, '4000000000000341');
  await create(e, { payment_method: pm, amount: 9, frequency: 'monthly', reference: 'susp-pause' });
  await advance(e, '10d');
  t.equal((await read(e, 'susp-pause')).status, 'suspended');
  const paused = await e.api.post('/v1/recurring-payments/susp-pause/pause');
  t.equal(paused.status, 200, 'a suspended schedule can be paused');
  t.equal(paused.body.data.attributes.status, 'paused');
  const resumed = await e.api.post('/v1/recurring-payments/susp-pause/resume');
  t.equal(resumed.status, 200);
  t.equal(resumed.body.data.attributes.status, 'active');
});

t.test(
  'payment-method-session: success_url gets ?payment_method=updated appended on return, cancel_url ?payment_method=failed on failure (the hosted page)',
  async (t) => {
    const { e, pm } = await setup(t);
    await create(e, { payment_method: pm, amount: 1, frequency: 'monthly', reference: 'ret', start_date: '2027-03-01' });
    const post = (url: string, card: string) =>
      fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ card_number: card, expiry: '12/34', cvc: '123', name: 'Ada' }).toString(),
      });
    const ok = await e.api.post('/v1/recurring-payments/ret/payment-method-session', {
      success_url: 'https://shop.example/card?step=2',
      cancel_url: 'https://shop.example/card',
    });
    const saved = await post(ok.body.data.attributes.checkout_url, '5555555555554444');
    t.equal(saved.headers.get('location'), 'https://shop.example/card?step=2&payment_method=updated');
    const bad = await e.api.post('/v1/recurring-payments/ret/payment-method-session', {
      success_url: 'https://shop.example/card?step=2',
      cancel_url: 'https://shop.example/card',
    });
    const failed = await post(bad.body.data.attributes.checkout_url, '4000000000000002');
    t.equal(failed.headers.get('location'), 'https://shop.example/card?payment_method=failed');
  },
);

t.test(
  'recurring.* payloads: {event, data} with the schedule reference, amount (number), currency, status, frequency, interval_count, next_billing_date, retry_count, customer_email, metadata',
  async (t) => {
    const { e, pm, events } = await setup(t);
    await create(e, {
      payment_method: pm,
      amount: 9.5,
      frequency: 'monthly',
      reference: 'shape',
      customer_email: 'ada@example.com',
      metadata: { plan: 'pro' },
    });
    await advance(e, '0s');
    await e.api.post('/v1/recurring-payments/shape/pause');
    const charged = events.find((x) => x.name === 'recurring.charged')!;
    t.same(Object.keys(charged.data).sort(), [
      'amount',
      'currency',
      'customer_email',
      'frequency',
      'interval_count',
      'metadata',
      'next_billing_date',
      'payment_id',
      'payment_reference',
      'reference',
      'retry_count',
      'status',
    ]);
    t.match(charged.data, {
      reference: 'shape',
      amount: 9.5,
      currency: 'USD',
      status: 'active',
      frequency: 'monthly',
      interval_count: 1,
      next_billing_date: '2027-02-28',
      retry_count: 0,
      customer_email: 'ada@example.com',
      metadata: { plan: 'pro' },
      payment_reference: 'shape-0001',
      payment_id: Number,
    });
    t.match(events.find((x) => x.name === 'recurring.paused')!.data, { reference: 'shape', status: 'paused', amount: 9.5 });
  },
);
