import t from 'tap';
import { assertError, emulator, pay } from '../helpers/emulator.js';

// payemu's control plane (`/_payemu/`): health without a key, the one clock, advance by a
// duration or to a time (forward only) running due work in order, completing and paying as the
// hosted pages do, trigger, the event log, reset. Authenticated with any key of a Source, acting
// on that Source and mode. Each test is titled with the sentence it checks.

const e = await emulator(t, { clockStart: '2027-01-10T09:00:00Z', freezeClock: true });

t.test('GET /_payemu/health: 200 {"status":"ok"} once ready (no auth)', async (t) => {
  const res = await e.anon.get('/_payemu/health');
  t.equal(res.status, 200);
  t.same(res.body, { status: 'ok' });
});

t.test('Under /_payemu/, authenticated with any key of a Source; control-plane answers are plain JSON, errors in the /v1 envelope', async (t) => {
  assertError(t, await e.anon.get('/_payemu/clock'), 401);
  for (const as of [e.api, e.live, e.globex]) t.equal((await as.get('/_payemu/clock')).status, 200);
  const clock = await e.api.get('/_payemu/clock');
  t.notOk('data' in clock.body, 'not the /v1 envelope');
});

t.test('GET /_payemu/clock: {"now": "<timestamp>", "offset_seconds": N, "frozen": bool}', async (t) => {
  const res = await e.api.get('/_payemu/clock');
  t.same(Object.keys(res.body).sort(), ['frozen', 'now', 'offset_seconds']);
  t.match(res.body, { now: '2027-01-10T09:00:00.000000Z', frozen: true });
  t.type(res.body.offset_seconds, 'number');
});

t.test(
  'POST /_payemu/clock/advance {"by": "30d"} (or "12h", "90m", seconds as a number) or {"to": "<timestamp>"} (forward only): answers {now, offset_seconds, ran, items}',
  async (t) => {
    const local = await emulator(t, { clockStart: '2027-01-10T09:00:00Z', freezeClock: true });
    const by = async (value: unknown) => (await local.api.post('/_payemu/clock/advance', { by: value })).body.now;
    t.equal(await by('12h'), '2027-01-10T21:00:00.000000Z');
    t.equal(await by('90m'), '2027-01-10T22:30:00.000000Z');
    t.equal(await by(1800), '2027-01-10T23:00:00.000000Z');
    t.equal(await by('30d'), '2027-02-09T23:00:00.000000Z');
    const to = await local.api.post('/_payemu/clock/advance', { to: '2027-03-01T00:00:00Z' });
    t.equal(to.status, 200);
    t.match(to.body, { now: '2027-03-01T00:00:00.000000Z', offset_seconds: Number, ran: {}, items: [] });
    assertError(t, await local.api.post('/_payemu/clock/advance', { to: '2027-01-01T00:00:00Z' }), 422);
    assertError(t, await local.api.post('/_payemu/clock/advance', { by: '-1d' }), 422);
  },
);

t.test('advance moves time forward and runs, in time order, all work that falls due; items lists the first 100 things that ran', async (t) => {
  const local = await emulator(t, { clockStart: '2027-01-10T09:00:00Z', freezeClock: true });
  const late = await local.api.post('/v1/sessions', { amount: 1 });
  await local.api.post('/_payemu/clock/advance', { by: '1h' });
  const early = await local.api.post('/v1/sessions', { amount: 1 });
  await pay(local, { amount: 1, reference: 'cp-held', capture_method: 'manual' });
  const res = await local.api.post('/_payemu/clock/advance', { by: '8d' });
  t.same(
    res.body.ran,
    { 'session.expired': 2, 'payment.authorization_expired': 1 },
    'counts by kind: the two open sessions (the paid one is complete) and the hold',
  );
  const ats = res.body.items.map((x: { at: string }) => x.at);
  t.same(ats, [...ats].sort(), 'in time order');
  t.equal(res.body.items[0].id, late.body.data.id, 'the older session first');
  t.ok(res.body.items.some((x: { id: string }) => x.id === early.body.data.id));
});

t.test(
  'POST /_payemu/sessions/{id}/complete {"card_number"} completes a checkout as the hosted page would; POST /_payemu/invoices/{id}/pay and /_payemu/payment-links/{id}/pay name the payment',
  async (t) => {
    const s = await e.api.post('/v1/sessions', { amount: 3, reference: 'cp-complete' });
    const done = await e.api.post(`/_payemu/sessions/${s.body.data.id}/complete`, { card_number: '4242424242424242' });
    t.equal(done.status, 200);
    t.match(done.body, { session: { id: s.body.data.id, status: 'complete', payment_status: 'paid' }, payment: { reference: 'cp-complete', status: 'PAID' } });
    const link = await e.api.post('/v1/payment-links', { title: 'x', amount: 2 });
    t.match((await e.api.post(`/_payemu/payment-links/${link.body.data.id}/pay`, { card_number: '4242424242424242' })).body.payment, {
      status: 'PAID',
      amount: '2.00',
    });
    const invoice = await e.api.post('/v1/invoices', {
      customer_name: 'A',
      customer_email: 'a@example.com',
      currency: 'USD',
      due_date: '2027-01-20',
      items: [{ description: 'x', quantity: 1, unit_price: 4 }],
    });
    await e.api.post(`/v1/invoices/${invoice.body.data.id}/send`);
    t.match((await e.api.post(`/_payemu/invoices/${invoice.body.data.id}/pay`, { card_number: '4242424242424242' })).body.payment, {
      status: 'PAID',
      amount: '4.00',
    });
  },
);

t.test('POST /_payemu/trigger {"event", "data"} makes the event happen through real state changes', async (t) => {
  const res = await e.api.post('/_payemu/trigger', { event: 'payment.refunded' });
  t.equal(res.status, 200);
  const events = (await e.api.get('/_payemu/events?event=payment.refunded')).body.events;
  t.ok(events.length >= 1);
  const reference = events[0].reference;
  t.equal((await e.api.get(`/v1/payments/${encodeURIComponent(reference)}`)).body.data.attributes.status.endsWith('REFUNDED'), true, 'a real refunded payment');
});

t.test(
  'GET /_payemu/events {"events": [...]} newest first; GET /_payemu/events/{id}: {id, event, created_at, payload, delivery_status, attempts}; resend',
  async (t) => {
    const list = await e.api.get('/_payemu/events');
    const events = list.body.events;
    t.ok(events.length > 2);
    const times = events.map((x: { created_at: string }) => x.created_at);
    t.same(times, [...times].sort().reverse(), 'newest first');
    const one = await e.api.get(`/_payemu/events/${events[0].id}`);
    t.match(one.body, {
      id: events[0].id,
      event: String,
      created_at: String,
      payload: { event: String, data: Object },
      delivery_status: 'no_endpoint',
      attempts: [],
    });
    t.equal((await e.api.post(`/_payemu/events/${events[0].id}/resend`)).status < 300, true);
    assertError(t, await e.api.get('/_payemu/events/00000000-0000-4000-8000-000000000000'), 404);
    t.equal((await e.globex.get('/_payemu/events')).body.events.length, 0, "scoped to the key's Source and mode");
  },
);

t.test('POST /_payemu/reset empties the Source data in that mode; {"all": true} empties everything and resets the clock', async (t) => {
  const local = await emulator(t, { clockStart: '2027-01-10T09:00:00Z', freezeClock: true });
  await pay(local, { amount: 1, reference: 'r-acme' });
  await pay(local, { amount: 1, reference: 'r-globex' }, '4242424242424242', local.globex);
  await local.api.post('/_payemu/clock/advance', { by: '1d' });
  t.equal((await local.api.post('/_payemu/reset', {})).status, 200);
  assertError(t, await local.api.get('/v1/payments/r-acme'), 404);
  t.equal((await local.globex.get('/v1/payments/r-globex')).status, 200, 'another Source is untouched');
  t.equal((await local.api.get('/_payemu/clock')).body.now, '2027-01-11T09:00:00.000000Z', 'the clock is untouched');
  await local.api.post('/_payemu/reset', { all: true });
  assertError(t, await local.globex.get('/v1/payments/r-globex'), 404);
  t.not((await local.api.get('/_payemu/clock')).body.now, '2027-01-11T09:00:00.000000Z', 'the clock is reset');
});

t.test('GET /_payemu/events/stream: server-sent events (also takes ?key=, for browsers EventSource)', async (t) => {
  const ctl = new AbortController();
  const res = await fetch(`${e.url}/_payemu/events/stream?key=sk_test_payemu_acme`, { signal: ctl.signal });
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^text\/event-stream/);
  const reader = res.body!.getReader();
  const seen = (async () => {
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return text;
      text += new TextDecoder().decode(value);
      if (text.includes('cp-stream')) return text;
    }
  })();
  await pay(e, { amount: 1, reference: 'cp-stream' });
  t.match(await seen, /event: event[\s\S]*cp-stream/, 'the event arrives on the stream');
  ctl.abort();
  assertError(t, await e.anon.get('/_payemu/events/stream?key=sk_test_wrong'), 401);
});
