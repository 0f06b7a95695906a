import t from 'tap';
import { assertError, emulator } from './helpers/emulator.js';

t.test('POST /v1/sessions creates a session with SPEC.md attributes', async (t) => {
  const e = await emulator(t);
  const res = await e.api.post('/v1/sessions', { amount: 10.5, reference: 'order_1', currency: 'usd' });
  t.equal(res.status, 201);
  const data = res.body.data;
  t.match(data.id, /^cs_[0-9A-Za-z]{24}$/);
  t.equal(data.type, 'sessions');
  t.same(Object.keys(data.attributes).sort(), ['amount', 'checkout_url', 'currency', 'expires_at', 'reference']);
  t.equal(data.attributes.amount, 10.5, 'amount is a number');
  t.equal(data.attributes.currency, 'USD');
  t.equal(data.attributes.checkout_url, `${e.url}/checkout/${data.id}`);
  t.match(data.attributes.expires_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  t.same(data.links, { self: `${e.url}/v1/sessions/${data.id}`, checkout: data.attributes.checkout_url });
});

t.test('a bad amount is a 422 naming the field', async (t) => {
  const e = await emulator(t);
  const res = await e.api.post('/v1/sessions', { amount: 10.005 });
  assertError(t, res, 422);
  t.same(res.body.errors[0].meta.errors, { amount: ['The amount field must have at most 2 decimal places.'] });
});
