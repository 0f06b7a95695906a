import t from 'tap';
import { open } from '../../src/http/route.js';
import { assertError, emulator, pay } from '../helpers/emulator.js';

// The API's Errors section: one envelope for every error, framework-level ones included, the
// title of each status, `meta.errors` of a 422, and the conditions of its table. Each test is
// titled with the sentence it checks. One emulator serves the file.

// A route that crashes, to see a server failure's envelope.
const crash = open({
  method: 'GET',
  path: '/_test/crash',
  handle: () => {
    throw new Error('boom');
  },
});
const e = await emulator(t, { extraRoutes: [crash], clockStart: '2027-01-10T09:00:00Z', freezeClock: true });

t.test(
  'Every error, including framework-level ones (404, 405, 5xx), is {errors: [{status, title, detail}]}, status the HTTP status as a string, title the status phrase',
  async (t) => {
    const notFound = await e.api.get('/v1/nothing-here');
    assertError(t, notFound, 404);
    t.equal(notFound.body.errors[0].title, 'Not Found');
    const notAllowed = await e.api.request('DELETE', '/v1/me');
    assertError(t, notAllowed, 405);
    t.equal(notAllowed.body.errors[0].title, 'Method Not Allowed');
    const failed = await e.anon.get('/_test/crash');
    assertError(t, failed, 500);
    t.equal(failed.body.errors[0].title, 'Internal Server Error');
    t.notMatch(failed.text, /boom/, 'a server failure does not leak its cause');
  },
);

t.test('Validation errors (422) add meta.errors, a map of field name to an array of messages', async (t) => {
  const res = await e.api.post('/v1/sessions', { amount: 0, currency: 'DOLLARS', customer_email: 'nope' });
  assertError(t, res, 422);
  t.equal(res.body.errors[0].title, 'Unprocessable Entity');
  const errors = res.body.errors[0].meta.errors as Record<string, unknown>;
  t.same(Object.keys(errors).sort(), ['amount', 'currency', 'customer_email']);
  for (const messages of Object.values(errors)) {
    t.ok(Array.isArray(messages) && messages.length > 0 && messages.every((m) => typeof m === 'string'), 'an array of messages');
  }
});

t.test('404 Not Found: payment or recurring payment with that reference does not exist', async (t) => {
  for (const path of ['/v1/payments/none', '/v1/payments/none/refunds', '/v1/recurring-payments/none']) assertError(t, await e.api.get(path), 404);
  assertError(t, await e.api.post('/v1/payments/none/capture', {}), 404);
  assertError(t, await e.api.post('/v1/payments/none/void'), 404);
  assertError(t, await e.api.post('/v1/payments/none/refunds', { amount: 1 }), 404);
  assertError(t, await e.api.post('/v1/recurring-payments/none/pause'), 404);
  assertError(t, await e.api.request('DELETE', '/v1/recurring-payments/none'), 404);
});

t.test(
  '409 Conflict: session creation when a payment with the reference is already completed, or the reference is used by another website; an idempotency key reused with a different body',
  async (t) => {
    await pay(e, { amount: 5, reference: 'err-done' });
    const again = await e.api.post('/v1/sessions', { amount: 5, reference: 'err-done' });
    assertError(t, again, 409);
    t.equal(again.body.errors[0].title, 'Conflict');
    assertError(t, await e.globex.post('/v1/sessions', { amount: 5, reference: 'err-done' }), 409);
    const key = { 'Idempotency-Key': 'err-key-1' };
    t.equal((await e.api.post('/v1/sessions', { amount: 1 }, key)).status, 201);
    assertError(t, await e.api.post('/v1/sessions', { amount: 2 }, key), 409);
  },
);

t.test('422: capture of a non-authorized payment; void of a non-authorized payment; refund not allowed', async (t) => {
  await pay(e, { amount: 5, reference: 'err-paid' });
  assertError(t, await e.api.post('/v1/payments/err-paid/capture', {}), 422);
  assertError(t, await e.api.post('/v1/payments/err-paid/void'), 422);
  assertError(t, await e.api.post('/v1/payments/err-paid/refunds', { amount: 6 }), 422);
});

t.test('Malformed JSON is a 400; a body that is not JSON (Content-Type other than application/json) is a 415', async (t) => {
  const before = (await e.api.get('/v1/payments')).body.meta.total;
  const bad = await e.api.post('/v1/sessions', '{"amount": 1,');
  assertError(t, bad, 400);
  t.equal(bad.body.errors[0].title, 'Bad Request');
  const form = await e.api.post('/v1/sessions', 'amount=1', { 'Content-Type': 'application/x-www-form-urlencoded' });
  assertError(t, form, 415);
  t.equal(form.body.errors[0].title, 'Unsupported Media Type');
  const patch = await e.api.request('PATCH', '/v1/recurring-payments/x', 'amount=1', { 'Content-Type': 'text/plain' });
  assertError(t, patch, 415);
  t.equal((await e.api.get('/v1/payments')).body.meta.total, before, 'nothing was created by a refused request');
});
