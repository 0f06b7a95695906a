import t from 'tap';
import { assertError, emulator, pay } from './helpers/emulator.js';

const key = (k: string) => ({ 'Idempotency-Key': k });

t.test('the same key and body replays the original status and byte-identical body', async (t) => {
  const e = await emulator(t);
  const first = await e.api.post('/v1/sessions', { amount: 10, reference: 'idem-1' }, key('k1'));
  t.equal(first.status, 201);
  t.equal(first.headers.get('idempotent-replayed'), null);
  const again = await e.api.post('/v1/sessions', { reference: 'idem-1', amount: 10 }, key('k1'));
  t.equal(again.status, 201);
  t.equal(again.text, first.text, 'byte-identical (keys in another order are the same body)');
  t.equal(again.headers.get('idempotent-replayed'), 'true');
});

t.test('the same key with a different body, path or method is a 409', async (t) => {
  const e = await emulator(t);
  await e.api.post('/v1/sessions', { amount: 10 }, key('k2'));
  assertError(t, await e.api.post('/v1/sessions', { amount: 11 }, key('k2')), 409, /Idempotency-Key/);
  await pay(e, { amount: 10, reference: 'p2' });
  assertError(t, await e.api.post('/v1/payments/p2/refunds', { amount: 1 }, key('k2')), 409);
  t.same((await e.api.get('/v1/payments/p2/refunds')).body.data, [], 'the refused request did nothing');
});

t.test('keys are scoped by Source and mode', async (t) => {
  const e = await emulator(t);
  const acme = await e.api.post('/v1/sessions', { amount: 10 }, key('shared'));
  const globex = await e.globex.post('/v1/sessions', { amount: 10 }, key('shared'));
  const live = await e.live.post('/v1/sessions', { amount: 10 }, key('shared'));
  t.equal(globex.status, 201);
  t.equal(live.status, 201);
  t.not(globex.body.data.id, acme.body.data.id);
  t.not(live.body.data.id, acme.body.data.id);
});

t.test('business refusals are saved and replayed; validation refusals are not', async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 10, reference: 'p3' });
  const over = await e.api.post('/v1/payments/p3/refunds', { amount: 20 }, key('k3'));
  t.equal(over.status, 422);
  const replay = await e.api.post('/v1/payments/p3/refunds', { amount: 20 }, key('k3'));
  t.equal(replay.text, over.text);
  t.equal(replay.headers.get('idempotent-replayed'), 'true');

  const invalid = await e.api.post('/v1/sessions', { amount: 'x' }, key('k4'));
  t.equal(invalid.status, 422);
  const fixed = await e.api.post('/v1/sessions', { amount: 5 }, key('k4'));
  t.equal(fixed.status, 201, 'a schema 422 did not use the key up');
  t.equal(fixed.headers.get('idempotent-replayed'), null);
});

t.test('a replayed refund refunds once', async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 10, reference: 'p5' });
  for (let i = 0; i < 3; i++) t.equal((await e.api.post('/v1/payments/p5/refunds', { amount: 4 }, key('refund-once'))).status, 201);
  t.equal((await e.api.get('/v1/payments/p5/refunds')).body.meta.payment.total_refunded, '4.00');
});

t.test('concurrent requests with one key create one object', async (t) => {
  const e = await emulator(t);
  const answers = await Promise.all(Array.from({ length: 20 }, () => e.api.post('/v1/sessions', { amount: 10, reference: 'once' }, key('race'))));
  t.equal(new Set(answers.map((a) => a.text)).size, 1, 'one body for all');
  t.ok(answers.every((a) => a.status === 201));
  t.equal(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true').length, 19);
  // A second session for the same reference without the key shows there is exactly one open one... and one id.
  t.equal(new Set(answers.map((a) => a.body.data.id)).size, 1);
});

t.test('keys last 24 hours of virtual time', async (t) => {
  const e = await emulator(t);
  const first = await e.api.post('/v1/sessions', { amount: 10 }, key('day'));
  await e.api.post('/_payemu/clock/advance', { by: '23h' });
  t.equal((await e.api.post('/v1/sessions', { amount: 10 }, key('day'))).text, first.text);
  await e.api.post('/_payemu/clock/advance', { by: '1h' });
  const fresh = await e.api.post('/v1/sessions', { amount: 10 }, key('day'));
  t.equal(fresh.status, 201);
  t.not(fresh.body.data.id, first.body.data.id, 'after 24 h the key is new again');
});

t.test('a key longer than 255 characters is a 400', async (t) => {
  const e = await emulator(t);
  assertError(t, await e.api.post('/v1/sessions', { amount: 10 }, key('k'.repeat(256))), 400, /Idempotency-Key/);
});

t.test('saved results survive a restart', async (t) => {
  const dir = t.testdir();
  const e1 = await emulator(t, { inMemory: false, dataDir: dir });
  const first = await e1.api.post('/v1/sessions', { amount: 10 }, key('durable'));
  await e1.close();
  const e2 = await emulator(t, { inMemory: false, dataDir: dir });
  const again = await e2.api.post('/v1/sessions', { amount: 10 }, key('durable'));
  t.equal(again.text, first.text, 'byte-identical, even the URLs of the first run');
  t.equal(again.headers.get('idempotent-replayed'), 'true');
});
