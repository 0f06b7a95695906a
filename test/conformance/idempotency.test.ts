import t from 'tap';
import { assertError, emulator, pay } from '../helpers/emulator.js';

// The API's idempotency (every POST accepts Idempotency-Key; the Limits row: 24 hours, the
// original response, 409 for a different body) and payemu's rules: keyed by Source, mode and
// key; a repeat matches method, path and canonical JSON; a replay is byte-identical; what is
// saved and what is not; a concurrent duplicate. Each test is titled with the sentence it checks.
// One emulator serves the file; tests keep apart by key and reference.

const e = await emulator(t, { clockStart: '2027-01-10T09:00:00Z', freezeClock: true });
const key = (k: string) => ({ 'Idempotency-Key': k });

t.test('Every POST accepts the optional Idempotency-Key header: the same key returns the original response', async (t) => {
  const pm = (await pay(e, { amount: 1, save_payment_method: true })).completed.body.payment.payment_method;
  await pay(e, { amount: 50, reference: 'idem-paid' });
  await pay(e, { amount: 50, reference: 'idem-held', capture_method: 'manual' });
  await pay(e, { amount: 50, reference: 'idem-held-2', capture_method: 'manual' });
  const invoice = await e.api.post('/v1/invoices', {
    customer_name: 'Ada',
    customer_email: 'ada@example.com',
    currency: 'USD',
    due_date: '2027-01-20',
    items: [{ description: 'Work', quantity: 1, unit_price: 10 }],
  });
  await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 1, frequency: 'monthly', reference: 'idem-sub', start_date: '2027-02-01' });
  const posts: [string, Record<string, unknown> | undefined][] = [
    ['/v1/sessions', { amount: 1 }],
    ['/v1/payments/idem-paid/refunds', { amount: 1 }],
    ['/v1/payments/idem-held/capture', {}],
    ['/v1/payments/idem-held-2/void', undefined],
    ['/v1/charges', { payment_method: pm, amount: 1 }],
    [
      '/v1/invoices',
      {
        customer_name: 'A',
        customer_email: 'a@example.com',
        currency: 'USD',
        due_date: '2027-01-20',
        items: [{ description: 'x', quantity: 1, unit_price: 1 }],
      },
    ],
    [`/v1/invoices/${invoice.body.data.id}/send`, undefined],
    ['/v1/payment-links', { title: 'Link', amount: 1 }],
    ['/v1/recurring-payments', { payment_method: pm, amount: 1, frequency: 'daily', start_date: '2027-02-01' }],
    ['/v1/recurring-payments/idem-sub/pause', undefined],
    ['/v1/recurring-payments/idem-sub/payment-method-session', {}],
    ['/v1/tax/calculate', { amount: 10 }],
  ];
  for (const [path, body] of posts) {
    const k = key(`every-${path}`);
    const first = await e.api.request('POST', path, body, k);
    t.ok(first.status < 300, `${path}: ${first.status}`);
    const again = await e.api.request('POST', path, body, k);
    t.equal(again.status, first.status, `${path}: the original status`);
    t.equal(again.text, first.text, `${path}: the original body`);
  }
  t.equal((await e.api.get('/v1/payments/idem-paid/refunds')).body.data.length, 1, 'the replayed refund refunded once');
});

t.test('A replay returns the original status and the byte-identical body; the body matches on its canonical JSON', async (t) => {
  const first = await e.api.post('/v1/sessions', '{"amount": 10, "reference": "idem-canon"}', key('canon'));
  const again = await e.api.post('/v1/sessions', '{"reference":"idem-canon","amount":10}', key('canon'));
  t.equal(again.status, 201);
  t.equal(again.text, first.text);
});

t.test('A different body with the same key returns 409; so does another method or path', async (t) => {
  await e.api.post('/v1/sessions', { amount: 10 }, key('diff'));
  const res = await e.api.post('/v1/sessions', { amount: 11 }, key('diff'));
  assertError(t, res, 409);
  t.equal(res.body.errors[0].title, 'Conflict');
  await pay(e, { amount: 10, reference: 'idem-path' });
  assertError(t, await e.api.post('/v1/payments/idem-path/refunds', { amount: 10 }, key('diff')), 409);
  t.same((await e.api.get('/v1/payments/idem-path/refunds')).body.data, [], 'the refused request did nothing');
});

t.test('Idempotency keys are keyed by Source, mode and key', async (t) => {
  const acme = await e.api.post('/v1/sessions', { amount: 10 }, key('scoped'));
  const live = await e.live.post('/v1/sessions', { amount: 10 }, key('scoped'));
  const globex = await e.globex.post('/v1/sessions', { amount: 10 }, key('scoped'));
  t.equal(live.status, 201);
  t.equal(globex.status, 201);
  t.equal(new Set([acme.body.data.id, live.body.data.id, globex.body.data.id]).size, 3, 'three sessions');
});

t.test('A result is saved once the request passed authentication and validation: a business 422 is replayed', async (t) => {
  await pay(e, { amount: 10, reference: 'idem-422' });
  const over = await e.api.post('/v1/payments/idem-422/refunds', { amount: 20 }, key('business'));
  t.equal(over.status, 422);
  const again = await e.api.post('/v1/payments/idem-422/refunds', { amount: 20 }, key('business'));
  t.equal(again.status, 422);
  t.equal(again.text, over.text);
});

t.test('Earlier refusals (400, 415, schema 422) are not saved', async (t) => {
  assertError(t, await e.api.post('/v1/sessions', '{"amount":', key('early-400')), 400);
  t.equal((await e.api.post('/v1/sessions', { amount: 1 }, key('early-400'))).status, 201, 'after a 400');
  assertError(t, await e.api.post('/v1/sessions', 'amount=1', { ...key('early-415'), 'Content-Type': 'text/plain' }), 415);
  t.equal((await e.api.post('/v1/sessions', { amount: 1 }, key('early-415'))).status, 201, 'after a 415');
  assertError(t, await e.api.post('/v1/sessions', { amount: 'x' }, key('early-422')), 422);
  t.equal((await e.api.post('/v1/sessions', { amount: 1 }, key('early-422'))).status, 201, 'after a schema 422');
});

t.test('A concurrent duplicate waits for the first and replays it', async (t) => {
  const answers = await Promise.all(Array.from({ length: 10 }, () => e.api.post('/v1/sessions', { amount: 10, reference: 'idem-race' }, key('race'))));
  t.ok(answers.every((a) => a.status === 201));
  t.equal(new Set(answers.map((a) => a.text)).size, 1, 'one answer for all');
});

t.test('Idempotency window: 24 hours', async (t) => {
  const first = await e.api.post('/v1/sessions', { amount: 10 }, key('day'));
  await e.api.post('/_payemu/clock/advance', { by: '23h' });
  t.equal((await e.api.post('/v1/sessions', { amount: 10 }, key('day'))).text, first.text, 'within 24 hours: the original');
  await e.api.post('/_payemu/clock/advance', { by: '1h' });
  const fresh = await e.api.post('/v1/sessions', { amount: 10 }, key('day'));
  t.equal(fresh.status, 201);
  t.not(fresh.body.data.id, first.body.data.id, 'after 24 hours the key is new');
});
