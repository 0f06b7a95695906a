import t from 'tap';
import { createClient } from '../../src/client/client.js';
import { assertError, emulator, pay, type Client, type TestEmulator } from '../helpers/emulator.js';
import { receiver } from '../helpers/receiver.js';

// payemu's faults (`/_payemu/faults`): matching `/v1` requests of a Source and mode answered
// with an error, late, or not at all, with or without running. Each test is titled with the
// sentence it checks. Latencies are small and asserted as "at least" only. A faulted answer is, by
// design, one the API's document does not promise: faulted requests go through the plain client
// (`raw`), not the helpers' checked one.

const raw = (e: TestEmulator, key = 'sk_test_payemu_acme') => createClient({ url: e.url, key });

const del = (as: Client, path: string) => as.request('DELETE', path);
const fault = async (as: Client, body: Record<string, unknown>) => {
  const res = await as.post('/_payemu/faults', body);
  if (res.status !== 201) throw new Error(`fault not added: ${res.text}`);
  return res.body as Record<string, any>;
};
const payments = async (e: TestEmulator, as: Client = e.api) => (await as.get('/v1/payments')).body.meta.total as number;

t.test('POST /_payemu/faults answers 201 with the fault (id flt_..., hits), every field filled', async (t) => {
  const e = await emulator(t, { freezeClock: true });
  const sent = {
    method: 'POST',
    path: '/v1/payments/*/refunds',
    status: 503,
    body: { oops: true },
    latency_ms: 5,
    drop: false,
    apply: false,
    probability: 1,
    times: 2,
    seed: 7,
  };
  const res = await e.api.post('/_payemu/faults', sent);
  t.equal(res.status, 201);
  t.match(res.body.id, /^flt_[0-9A-Za-z]{24}$/);
  t.same(res.body, { id: res.body.id, ...sent, hits: 0 });
  const small = await e.api.post('/_payemu/faults', { path: '/v1/me', status: 500 });
  t.same(
    small.body,
    {
      id: small.body.id,
      method: null,
      path: '/v1/me',
      status: 500,
      body: null,
      latency_ms: 0,
      drop: false,
      apply: false,
      probability: 1,
      times: null,
      seed: 1,
      hits: 0,
    },
    'the defaults',
  );
  for (const bad of [
    { path: '/v1/me', status: 399 },
    { path: '/v1/me', status: 600 },
    { path: '/v1/me' },
    { path: '/_payemu/clock', status: 500 },
    { path: '/v1/me', status: 500, oops: 1 },
  ]) {
    assertError(t, await e.api.post('/_payemu/faults', bad), 422);
  }
  t.equal((await e.api.get('/_payemu/faults')).body.faults.length, 2, 'a refused fault is not added');
});

t.test('Matching /v1 requests answer status (400 to 599, the errors envelope unless body is given; a 429 carries Retry-After: 1)', async (t) => {
  const e = await emulator(t, { freezeClock: true });
  const f = await fault(e.api, { method: 'POST', path: '/v1/sessions', status: 503 });
  const res = await raw(e).request('POST', '/v1/sessions', { amount: 1 });
  assertError(t, res, 503, new RegExp(f.id));
  t.equal((await e.api.get('/v1/me')).status, 200, 'another method or path is not matched');
  t.equal((await e.globex.post('/v1/sessions', { amount: 1 })).status, 201, 'another Source is not matched');
  t.equal((await e.live.post('/v1/sessions', { amount: 1 })).status, 201, 'another mode is not matched');
  await fault(e.api, { method: 'GET', path: '/v1/me', status: 418, body: { custom: ['yes'] } });
  const custom = await raw(e).request('GET', '/v1/me');
  t.equal(custom.status, 418);
  t.same(custom.body, { custom: ['yes'] }, 'body instead of the envelope');
  await fault(e.api, { path: '/v1/payments', status: 429 });
  const limited = await raw(e).request('GET', '/v1/payments');
  assertError(t, limited, 429);
  t.equal(limited.headers.get('retry-after'), '1');
  await del(e.api, '/_payemu/faults');
  await fault(e.api, { method: 'POST', path: '/v1/sessions', status: 429, times: 1 });
  const triggered = await e.api.post('/_payemu/trigger', { event: 'payment.completed' });
  assertError(t, triggered, 429, /trigger's step "session"/);
  t.equal(triggered.headers.get('retry-after'), '1', "a trigger whose step got the 429 answers it with the step's Retry-After");
});

t.test('Without apply the request changes nothing, and a faulted request records no idempotency key', async (t) => {
  const r = await receiver(t);
  const e = await emulator(t, { freezeClock: true, webhookUrl: r.url, webhookBackoff: '0,0,0' });
  await fault(e.api, { method: 'POST', path: '/v1/charges', status: 502, times: 1 });
  const card = await (async () => {
    const s = await e.api.post('/v1/sessions', { amount: 1, save_payment_method: true });
    return (await e.api.post(`/_payemu/sessions/${s.body.data.id}/complete`, { card_number: '4242424242424242' })).body.payment.payment_method;
  })();
  await e.idle();
  const before = { payments: await payments(e), events: (await e.api.get('/_payemu/events')).body.events.length, received: r.received.length };
  const body = { payment_method: card, amount: 5, reference: 'f-charge' };
  assertError(t, await raw(e).request('POST', '/v1/charges', body, { 'Idempotency-Key': 'f-1' }), 502);
  await e.idle();
  t.equal(await payments(e), before.payments, 'nothing stored');
  t.equal((await e.api.get('/_payemu/events')).body.events.length, before.events, 'no event');
  t.equal(r.received.length, before.received, 'no webhook');
  const retry = await e.api.post('/v1/charges', body, { 'Idempotency-Key': 'f-1' });
  t.equal(retry.status, 201, 'the retry with the same key runs for real');
  t.not(retry.headers.get('idempotent-replayed'), 'true', 'not a replay: no key was recorded');
});

t.test('With apply: true it runs for real (stored, webhooks sent) and only its answer is replaced', async (t) => {
  const r = await receiver(t);
  const e = await emulator(t, { freezeClock: true, webhookUrl: r.url, webhookBackoff: '0,0,0' });
  await pay(e, { amount: 20, reference: 'f-apply' });
  await fault(e.api, { method: 'POST', path: '/v1/payments/*/refunds', status: 500, apply: true, times: 1 });
  const lost = await raw(e).request('POST', '/v1/payments/f-apply/refunds', { amount: 5 }, { 'Idempotency-Key': 'f-2' });
  assertError(t, lost, 500);
  await e.idle();
  t.equal((await e.api.get('/v1/payments/f-apply')).body.data.attributes.status, 'PARTIALLY_REFUNDED', 'stored');
  t.ok(
    r.received.some((x) => x.headers['x-webhook-event'] === 'payment.refunded'),
    'webhook sent',
  );
  const retry = await e.api.post('/v1/payments/f-apply/refunds', { amount: 5 }, { 'Idempotency-Key': 'f-2' });
  t.equal(retry.status, 201);
  t.equal(retry.headers.get('idempotent-replayed'), 'true', 'the real result replayed');
  t.equal((await e.api.get('/v1/payments/f-apply/refunds')).body.data.length, 1, 'refunded once');
});

t.test('drop: the connection is closed unanswered; a fault may have only latency_ms (wait latency_ms, then the real answer)', async (t) => {
  const e = await emulator(t, { freezeClock: true });
  await pay(e, { amount: 20, reference: 'f-drop' });
  await fault(e.api, { method: 'POST', path: '/v1/payments/*/refunds', drop: true, times: 1 });
  const refund = () =>
    fetch(`${e.url}/v1/payments/f-drop/refunds`, {
      method: 'POST',
      headers: { 'X-API-Key': 'sk_test_payemu_acme', 'Content-Type': 'application/json' },
      body: '{"amount":1}',
    });
  await t.rejects(refund(), 'no answer');
  t.equal((await e.api.get('/v1/payments/f-drop/refunds')).body.data.length, 0, 'the request did not run');
  const slow = await fault(e.api, { method: 'GET', path: '/v1/me', latency_ms: 30 });
  const started = performance.now();
  const me = await e.api.get('/v1/me');
  t.ok(performance.now() - started >= 25, 'at least latency_ms later');
  t.equal(me.status, 200, 'the real answer');
  t.equal(me.body.data.type, 'accounts');
  const listed = (await e.api.get('/_payemu/faults')).body.faults;
  t.match(listed, [{ id: slow.id, hits: 1 }], 'the drop retired after its one time; the latency fault counts its hit');
  const journal = (await e.api.get('/_payemu/requests')).body.requests;
  t.match(journal[0], { path: '/v1/me', fault: slow.id, status: 200 }, 'the journal names the fault');
  t.match(journal[2], { path: '/v1/payments/f-drop/refunds', fault: /^flt_/, status: null });
});

t.test('hits counts the requests a fault acted on; after times hits it retires and leaves the list', async (t) => {
  const e = await emulator(t, { freezeClock: true });
  const f = await fault(e.api, { method: 'GET', path: '/v1/me', status: 503, times: 2 });
  assertError(t, await raw(e).request('GET', '/v1/me'), 503);
  t.match((await e.api.get('/_payemu/faults')).body.faults, [{ id: f.id, hits: 1, times: 2 }]);
  assertError(t, await raw(e).request('GET', '/v1/me'), 503);
  t.same((await e.api.get('/_payemu/faults')).body, { faults: [] }, 'retired');
  t.equal((await e.api.get('/v1/me')).status, 200);
});

t.test('probability draws from a generator seeded by seed, so a run repeats exactly (another seed, another pattern)', async (t) => {
  const pattern = async (seed: number) => {
    const e = await emulator(t, { freezeClock: true });
    await fault(e.api, { method: 'GET', path: '/v1/me', status: 503, probability: 0.5, seed });
    let marks = '';
    for (let i = 0; i < 32; i++) marks += (await raw(e).request('GET', '/v1/me')).status === 503 ? 'x' : '.';
    const hits = (await e.api.get('/_payemu/faults')).body.faults[0].hits;
    t.equal(hits, marks.split('x').length - 1, 'hits counts the requests it acted on');
    await e.close();
    return marks;
  };
  const first = await pattern(7);
  t.match(first, /x/);
  t.match(first, /\./);
  t.equal(await pattern(7), first, 'the same seed: the same pattern');
  t.not(await pattern(8), first, 'another seed: another pattern');
});

t.test('GET /_payemu/faults answers {"faults": [...]}, DELETE /_payemu/faults/{id} one, DELETE /_payemu/faults all', async (t) => {
  const e = await emulator(t, { freezeClock: true });
  const a = await fault(e.api, { path: '/v1/me', status: 500 });
  const b = await fault(e.api, { path: '/v1/payments/**', status: 500 });
  const c = await fault(e.api, { path: '/v1/**', latency_ms: 1 });
  await fault(e.globex, { path: '/v1/me', status: 500 });
  t.same(
    (await e.api.get('/_payemu/faults')).body.faults.map((f: { id: string }) => f.id),
    [a.id, b.id, c.id],
    'in the order added, this scope only',
  );
  const removed = await del(e.api, `/_payemu/faults/${b.id}`);
  t.equal(removed.status, 200);
  t.same(removed.body, b, 'answers it as it was');
  assertError(t, await del(e.api, `/_payemu/faults/${b.id}`), 404);
  const globexFault = (await e.globex.get('/_payemu/faults')).body.faults[0];
  assertError(t, await del(e.api, `/_payemu/faults/${globexFault.id}`), 404);
  const all = await del(e.api, '/_payemu/faults');
  t.same(all.body, { removed: 2 });
  t.same((await e.api.get('/_payemu/faults')).body, { faults: [] });
  t.equal((await e.globex.get('/_payemu/faults')).body.faults.length, 1, "another Source's are kept");
});

t.test('A Source in the config may list faults (the same objects), in force from start', async (t) => {
  const e = await emulator(t, {
    freezeClock: true,
    config: { sources: [{ slug: 'acme', faults: [{ method: 'GET', path: '/v1/me', status: 503, times: 1 }] }] },
  });
  const listed = (await e.api.get('/_payemu/faults')).body.faults;
  t.match(listed, [{ id: /^flt_/, method: 'GET', path: '/v1/me', status: 503, times: 1, hits: 0 }]);
  assertError(t, await raw(e).request('GET', '/v1/me'), 503);
  assertError(t, await raw(e, 'sk_live_payemu_acme').request('GET', '/v1/me'), 503);
  t.equal((await e.api.get('/v1/me')).status, 200, 'retired after its time, in test mode');
  t.equal((await e.globex.get('/v1/me')).status, 200, 'another Source is not faulted');
});
