import http from 'node:http';
import t from 'tap';
import { assertError, emulator, pay } from '../helpers/emulator.js';

// payemu's boundaries: well-formed Unicode, absolute http(s) URLs, the Luhn check before any
// payment attempt, the ten-year advance, time stamps that never go backwards, trigger in live
// mode, the HTML pages' headers, DNS rebinding. (The data directory's lock, damage and crash
// recovery are tested with the binary in test/crash.test.ts, test/lock.test.ts and
// test/doctor.test.ts.) Each test is titled with the sentence it checks. One emulator serves the
// file, except where the clock moves.

const e = await emulator(t, { clockStart: '2027-01-10T09:00:00Z', freezeClock: true });

/** A GET with exactly this Host header. */
function getWithHost(path: string, host: string): Promise<{ status: number; body: any }> {
  const url = new URL(e.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path, agent: false, headers: { Host: host, Authorization: `Bearer ${e.keys.test}` } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

t.test('A lone surrogate ("\\ud800" in JSON) is a 422 naming the field (a 400 in a path or query); nothing is stored', async (t) => {
  const res = await e.api.post('/v1/sessions', '{"amount": 1, "reference": "bad-\\ud800"}');
  assertError(t, res, 422);
  t.ok(res.body.errors[0].meta.errors.reference, 'names reference');
  const desc = await e.api.post('/v1/sessions', '{"amount": 1, "description": "\\udfff"}');
  t.ok(desc.body.errors[0].meta.errors.description, 'names description');
  assertError(t, await e.api.get('/v1/payments/%ED%A0%80'), 400);
  assertError(t, await e.api.get('/v1/payments?filter[customer_email]=%ED%A0%80'), 400);
  const clock = await e.api.get('/_payemu/clock');
  t.equal(clock.status, 200, 'still serving');
});

t.test('URLs that users give (success_url, cancel_url) are absolute http: or https: URLs; anything else is a 422 naming the field', async (t) => {
  for (const url of ['javascript:alert(1)', '/relative', 'ftp://x.example/', 'mailto:a@example.com', 'data:text/html,hi']) {
    const res = await e.api.post('/v1/sessions', { amount: 1, success_url: url, cancel_url: url });
    assertError(t, res, 422);
    t.ok(res.body.errors[0].meta.errors.success_url && res.body.errors[0].meta.errors.cancel_url, url);
  }
  t.equal((await e.api.post('/v1/sessions', { amount: 1, success_url: 'http://localhost:3000/ok' })).status, 201);
});

t.test(
  'A card number that fails the Luhn check (or has fewer than 12 digits) is refused before any payment attempt: the control plane answers 422 meta.errors.card_number; no payment, no event',
  async (t) => {
    const events: string[] = [];
    const off = e.bus.on('domain', (ev) => events.push(ev.name));
    const s = await e.api.post('/v1/sessions', { amount: 1, reference: 'luhn' });
    for (const card of ['4242424242424241', '42424242424', 'abcd']) {
      const res = await e.api.post(`/_payemu/sessions/${s.body.data.id}/complete`, { card_number: card });
      assertError(t, res, 422);
      t.ok(res.body.errors[0].meta.errors.card_number, card);
    }
    off();
    assertError(t, await e.api.get('/v1/payments/luhn'), 404);
    t.same(events, []);
    const unknown = await e.api.post(`/_payemu/sessions/${s.body.data.id}/complete`, { card_number: '4111111111111111' });
    t.equal(unknown.body.payment.failure_code, 'card_not_supported', 'a Luhn-valid unknown number stays card_not_supported in test mode');
  },
);

t.test('Clock: one advance moves at most 3,653 days (ten years; by or to); more is a 422 naming the field', async (t) => {
  const local = await emulator(t, { clockStart: '2027-01-10T00:00:00Z', freezeClock: true });
  const by = await local.api.post('/_payemu/clock/advance', { by: '3654d' });
  assertError(t, by, 422);
  t.ok(by.body.errors[0].meta.errors.by);
  const to = await local.api.post('/_payemu/clock/advance', { to: '2037-01-11T00:00:00Z' });
  assertError(t, to, 422);
  t.ok(to.body.errors[0].meta.errors.to);
  t.equal((await local.api.post('/_payemu/clock/advance', { by: '3653d' })).status, 200);
});

t.test(
  'Time stamps never go backwards: a schedule created at 10:00 whose first charge is due at 00:00 the same day is charged at 10:00; an invoice sent after its due date turns overdue at the moment it was sent',
  async (t) => {
    const local = await emulator(t, { clockStart: '2027-01-10T10:00:00Z', freezeClock: true });
    const pm = (await pay(local, { amount: 1, save_payment_method: true })).completed.body.payment.payment_method;
    await local.api.post('/v1/recurring-payments', { payment_method: pm, amount: 2, frequency: 'monthly', reference: 'now' });
    await local.api.post('/_payemu/clock/advance', { by: '0s' });
    t.equal((await local.api.get('/v1/payments/now-0001')).body.data.attributes.created_at, '2027-01-10T10:00:00.000000Z');
    const invoice = await local.api.post('/v1/invoices', {
      customer_name: 'A',
      customer_email: 'a@example.com',
      currency: 'USD',
      due_date: '2027-01-10',
      items: [{ description: 'x', quantity: 1, unit_price: 1 }],
    });
    await local.api.post('/_payemu/clock/advance', { by: '2d' });
    await local.api.post(`/v1/invoices/${invoice.body.data.id}/send`);
    await local.api.post('/_payemu/clock/advance', { by: '0s' });
    const [overdue] = (await local.api.get('/_payemu/events?event=invoice.overdue')).body.events;
    t.equal(overdue?.created_at, '2027-01-12T10:00:00.000000Z', 'overdue at the moment it was sent, not at 00:00 of Jan 11');
    t.equal((await local.api.get(`/v1/invoices/${invoice.body.data.id}`)).body.data.attributes.status, 'overdue');
  },
);

t.test('payemu trigger works with live keys too (it pays with a live-mode card)', async (t) => {
  const res = await e.live.post('/_payemu/trigger', { event: 'payment.completed' });
  t.equal(res.status, 200);
  const [event] = (await e.live.get('/_payemu/events?event=payment.completed')).body.events;
  t.match(event.payload.data, { status: 'PAID' });
  t.equal((await e.live.get(`/v1/payments/${encodeURIComponent(event.reference)}`)).body.data.attributes.status, 'PAID');
});

t.test(
  'HTML pages send Content-Security-Policy (no framing, scripts only from payemu itself), X-Content-Type-Options: nosniff and Referrer-Policy: no-referrer',
  async (t) => {
    const s = await e.api.post('/v1/sessions', { amount: 1 });
    const page = await fetch(s.body.data.attributes.checkout_url);
    t.equal(page.status, 200);
    const csp = page.headers.get('content-security-policy') ?? '';
    t.match(csp, /frame-ancestors 'none'/);
    t.match(csp, /script-src 'self'|default-src 'self'/);
    t.equal(page.headers.get('x-content-type-options'), 'nosniff');
    t.equal(page.headers.get('referrer-policy'), 'no-referrer');
  },
);

t.test('DNS rebinding: while bound to a loopback address, a request whose Host is not localhost, 127.0.0.1 or [::1] (any port) is a 403', async (t) => {
  for (const host of ['evil.example', 'evil.example:4242', 'localhost.evil.example']) {
    const res = await getWithHost('/v1/me', host);
    t.equal(res.status, 403, host);
    t.equal(res.body.errors[0].status, '403', 'in the envelope');
  }
  for (const host of ['localhost', 'localhost:1234', '127.0.0.1:9', '[::1]:80']) t.equal((await getWithHost('/v1/me', host)).status, 200, host);
});
