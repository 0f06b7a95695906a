import t from 'tap';
import { createClient } from '../src/client/client.js';
import { assertError, emulator, pay, type TestEmulator } from './helpers/emulator.js';
import { receiver } from './helpers/receiver.js';

// A faulted answer is, by design, one the API's document does not promise (any status, any
// body): those are read with the plain client, not the helpers' checked one.
const raw = (e: TestEmulator, key = e.keys.test) => createClient({ url: e.url, key });
const idem = (key: string) => ({ 'Idempotency-Key': key });

t.test('POST /_payemu/faults answers 201 with the fault, its defaults filled and 0 hits; GET lists it; DELETE removes it', async (t) => {
  const e = await emulator(t);
  const added = await e.api.post('/_payemu/faults', { path: '/v1/payments/*/refunds', status: 503 });
  t.equal(added.status, 201);
  t.match(added.body.id, /^flt_[0-9A-Za-z]{24}$/);
  t.same(added.body, {
    id: added.body.id,
    method: null,
    path: '/v1/payments/*/refunds',
    status: 503,
    body: null,
    latency_ms: 0,
    drop: false,
    apply: false,
    probability: 1,
    times: null,
    seed: 1,
    hits: 0,
  });
  const second = await e.api.post('/_payemu/faults', { method: 'GET', path: '/v1/me', latency_ms: 10, times: 3, seed: 7, probability: 0.5 });
  t.equal(second.status, 201);
  const list = await e.api.get('/_payemu/faults');
  t.same(
    list.body.faults.map((f: { id: string }) => f.id),
    [added.body.id, second.body.id],
    'oldest first',
  );

  const removed = await e.api.request('DELETE', `/_payemu/faults/${added.body.id}`);
  t.equal(removed.status, 200);
  t.equal(removed.body.id, added.body.id);
  assertError(t, await e.api.request('DELETE', `/_payemu/faults/${added.body.id}`), 404, /No fault/);
  const cleared = await e.api.request('DELETE', '/_payemu/faults');
  t.same(cleared.body, { removed: 1 });
  t.same((await e.api.get('/_payemu/faults')).body, { faults: [] });
});

t.test('a fault that is not valid is a 422 naming the field, and nothing is added', async (t) => {
  const e = await emulator(t);
  const cases: [Record<string, unknown>, string][] = [
    [{ status: 503 }, 'path'],
    [{ path: '/v2/me', status: 503 }, 'path'],
    [{ path: '/_payemu/clock', status: 503 }, 'path'],
    [{ path: '/v1/pay*', status: 503 }, 'path'],
    [{ path: '/v1/**/refunds', status: 503 }, 'path'],
    [{ path: '/v1//me', status: 503 }, 'path'],
    [{ path: '/v1/me', status: 399 }, 'status'],
    [{ path: '/v1/me', status: 600 }, 'status'],
    [{ path: '/v1/me', method: 'HEAD', status: 503 }, 'method'],
    [{ path: '/v1/me', status: 503, probability: 1.5 }, 'probability'],
    [{ path: '/v1/me', status: 503, times: 0 }, 'times'],
    [{ path: '/v1/me', latency_ms: 60_001 }, 'latency_ms'],
    [{ path: '/v1/me', latency_ms: -1 }, 'latency_ms'],
    [{ path: '/v1/me', status: 503, seed: 1.5 }, 'seed'],
    [{ path: '/v1/me' }, 'status'],
    [{ path: '/v1/me', latency_ms: 0 }, 'status'],
    [{ path: '/v1/me', status: 503, drop: true }, 'drop'],
    [{ path: '/v1/me', body: { error: 'x' } }, 'body'],
    [{ path: '/v1/me', status: 503, colour: 'red' }, 'colour'],
  ];
  for (const [body, field] of cases) {
    const answer = await e.api.post('/_payemu/faults', body);
    assertError(t, answer, 422);
    t.ok(answer.body.errors[0].meta?.errors?.[field], `${JSON.stringify(body)} names ${field}: ${answer.text}`);
  }
  t.same((await e.api.get('/_payemu/faults')).body.faults, []);
});

t.test('an unknown field named like an Object method (constructor, toString) is a 422 naming it, not a crash', async (t) => {
  const e = await emulator(t);
  for (const field of ['constructor', 'toString']) {
    const refused = await e.api.post('/_payemu/faults', { path: '/v1/me', status: 500, [field]: 1 });
    assertError(t, refused, 422, /not allowed/);
    t.ok(refused.body.errors[0].meta.errors[field], `${field} is named`);
  }
  t.same((await e.api.get('/_payemu/faults')).body.faults, [], 'nothing was added');
});

t.test('a status fault answers the envelope and changes nothing: no refund, no event, no idempotency key', async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 10, reference: 'f-1' });
  const events = e.events.list().length;
  const fault = await e.faults.add({ method: 'POST', path: '/v1/payments/*/refunds', status: 503, times: 1 });

  const faulted = await raw(e).request('POST', '/v1/payments/f-1/refunds', { amount: 4 }, idem('refund-1'));
  t.equal(faulted.status, 503);
  t.equal(faulted.body.errors[0].status, '503');
  t.match(faulted.body.errors[0].detail, fault.id);
  t.same((await e.api.get('/v1/payments/f-1/refunds')).body.data, [], 'no refund');
  await e.idle();
  t.equal(e.events.list().length, events, 'no event');
  t.same(await e.faults.list(), [], 'the fault retired after its one time');

  const retry = await e.api.post('/v1/payments/f-1/refunds', { amount: 4 }, idem('refund-1'));
  t.equal(retry.status, 201, 'the retry with the same key runs for real');
  t.equal(retry.headers.get('idempotent-replayed'), null, 'not a replay: the faulted request saved no key');
  t.equal((await e.api.get('/v1/payments/f-1/refunds')).body.meta.payment.total_refunded, '4.00');
});

t.test(
  'apply: true runs the request (stored, webhook sent) and loses its answer; the retry with the key replays the real result and refunds once',
  async (t) => {
    const r = await receiver(t);
    const e = await emulator(t, { webhookUrl: r.url, webhookBackoff: '0,0,0' });
    await pay(e, { amount: 10, reference: 'f-2' });
    await e.idle();
    const before = r.received.length;
    await e.faults.add({ method: 'POST', path: '/v1/payments/*/refunds', status: 503, apply: true, times: 1 });

    const faulted = await raw(e).request('POST', '/v1/payments/f-2/refunds', { amount: 4 }, idem('refund-2'));
    t.equal(faulted.status, 503, "the fault's answer");
    await e.idle();
    const refunds = await e.api.get('/v1/payments/f-2/refunds');
    t.equal(refunds.body.data.length, 1, 'the refund was stored');
    t.equal(r.received.length, before + 1, 'its webhook was sent');
    t.equal(JSON.parse(r.received.at(-1)!.body).event, 'payment.refunded');

    const retry = await e.api.post('/v1/payments/f-2/refunds', { amount: 4 }, idem('refund-2'));
    t.equal(retry.status, 201);
    t.equal(retry.headers.get('idempotent-replayed'), 'true', 'the real result, replayed');
    t.equal(retry.body.data.id, refunds.body.data[0].id);
    t.equal((await e.api.get('/v1/payments/f-2/refunds')).body.meta.payment.total_refunded, '4.00', 'refunded once');
  },
);

t.test('drop closes the connection unanswered, and changes nothing', async (t) => {
  const e = await emulator(t);
  await e.faults.add({ path: '/v1/sessions', method: 'POST', drop: true, times: 1 });
  await t.rejects(
    fetch(`${e.url}/v1/sessions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${e.keys.test}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ amount: 10, reference: 'dropped' }),
    }),
    'no answer',
  );
  assertError(t, await e.api.get('/v1/sessions/dropped'), 404);
  t.equal((await e.api.post('/v1/sessions', { amount: 10, reference: 'dropped' })).status, 201, 'then served again');
});

t.test('drop with apply: the work is done, the answer lost', async (t) => {
  const e = await emulator(t);
  await e.faults.add({ path: '/v1/sessions', method: 'POST', drop: true, apply: true, times: 1 });
  const body = JSON.stringify({ amount: 10, reference: 'lost' });
  const headers = { Authorization: `Bearer ${e.keys.test}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'lost-1' };
  await t.rejects(fetch(`${e.url}/v1/sessions`, { method: 'POST', headers, body }));
  const retry = await e.api.post('/v1/sessions', { amount: 10, reference: 'lost' }, { 'Idempotency-Key': 'lost-1' });
  t.equal(retry.status, 201);
  t.equal(retry.headers.get('idempotent-replayed'), 'true');
});

t.test('a latency-only fault delays the real answer: of two requests, the one it acted on answers last', async (t) => {
  const e = await emulator(t);
  await e.faults.add({ method: 'GET', path: '/v1/me', latency_ms: 1500, times: 1 });
  // Whichever request arrives first is delayed (the fault acts once); the other is answered at once.
  const settled: number[] = [];
  const requests = [0, 1].map((i) =>
    e.api.get('/v1/me').then((answer) => {
      settled.push(i);
      return answer;
    }),
  );
  const first = await Promise.race(requests);
  t.equal(settled.length, 1, 'one answered while the other still waits');
  t.same((await e.api.get('/_payemu/faults')).body.faults, [], 'the fault acted (and retired) before the delayed answer');
  const answers = await Promise.all(requests);
  t.equal(settled.length, 2);
  for (const answer of [first, ...answers]) {
    t.equal(answer.status, 200, 'the real answer');
    t.equal(answer.body.data.type, 'accounts');
  }
});

t.test('a 429 carries Retry-After: 1; a body replaces the envelope', async (t) => {
  const e = await emulator(t);
  await e.faults.add({ method: 'GET', path: '/v1/me', status: 429, times: 1 });
  await e.faults.add({ method: 'GET', path: '/v1/me', status: 502, body: { message: 'upstream gone' }, times: 1 });
  const limited = await raw(e).request('GET', '/v1/me');
  t.equal(limited.status, 429);
  t.equal(limited.headers.get('retry-after'), '1');
  t.equal(limited.body.errors[0].title, 'Too Many Requests');
  const own = await raw(e).request('GET', '/v1/me');
  t.equal(own.status, 502);
  t.same(own.body, { message: 'upstream gone' });
  t.equal(own.headers.get('retry-after'), null);
  t.equal((await e.api.get('/v1/me')).status, 200, 'both retired: the real answer');
});

t.test('the same seed gives the same hit pattern; another seed another; hits count the requests acted on', async (t) => {
  const e = await emulator(t);
  const pattern = async (seed: number) => {
    await e.faults.clear();
    const fault = await e.faults.add({ method: 'GET', path: '/v1/me', status: 503, probability: 0.5, seed });
    let bits = '';
    for (let i = 0; i < 24; i++) bits += (await raw(e).request('GET', '/v1/me')).status === 503 ? '1' : '0';
    const [after] = await e.faults.list();
    t.equal(after!.id, fault.id);
    t.equal(after!.hits, [...bits].filter((b) => b === '1').length, 'hits counts the faulted requests');
    return bits;
  };
  const first = await pattern(7);
  t.match(first, /1/);
  t.match(first, /0/);
  t.equal(await pattern(7), first, 'the same seed: the same pattern');
  t.not(await pattern(8), first, 'another seed: another pattern');
});

t.test('times retires a fault after that many hits; probability 0 never acts', async (t) => {
  const e = await emulator(t);
  await e.faults.add({ method: 'GET', path: '/v1/me', status: 500, probability: 0 });
  await e.faults.add({ method: 'GET', path: '/v1/me', status: 503, times: 2 });
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) statuses.push((await raw(e).request('GET', '/v1/me')).status);
  t.same(statuses, [503, 503, 200]);
  const left = await e.faults.list();
  t.equal(left.length, 1, 'the retired fault left the list');
  t.equal(left[0]!.status, 500);
  t.equal(left[0]!.hits, 0);
});

t.test('when several faults match, the oldest acts', async (t) => {
  const e = await emulator(t);
  await e.faults.add({ path: '/v1/**', status: 502, times: 1 });
  await e.faults.add({ method: 'GET', path: '/v1/me', status: 504, times: 1 });
  t.equal((await raw(e).request('GET', '/v1/me')).status, 502);
  t.equal((await raw(e).request('GET', '/v1/me')).status, 504);
});

t.test('faults are scoped to the Source and mode of the key that added them', async (t) => {
  const e = await emulator(t);
  const fault = await e.faults.add({ path: '/v1/me', status: 503 });
  t.equal((await raw(e).request('GET', '/v1/me')).status, 503);
  t.equal((await e.live.get('/v1/me')).status, 200, 'live mode of the Source: untouched');
  t.equal((await e.globex.get('/v1/me')).status, 200, 'another Source: untouched');
  t.same((await e.globex.get('/_payemu/faults')).body.faults, []);
  t.same((await e.live.get('/_payemu/faults')).body.faults, []);
  assertError(t, await e.globex.request('DELETE', `/_payemu/faults/${fault.id}`), 404);
  t.same((await e.globex.request('DELETE', '/_payemu/faults')).body, { removed: 0 });
  t.equal((await e.faults.list()).length, 1, 'still there');
  t.equal((await e.api.get('/_payemu/clock')).status, 200, 'the control plane is never faulted');
});

t.test('path globs: * is one segment, ** the rest; the method narrows', async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 10, reference: 'g-1' });
  await e.faults.add({ method: 'GET', path: '/v1/payments/*/refunds', status: 501 });
  await e.faults.add({ method: 'POST', path: '/v1/sessions/**', status: 502 });
  const client = raw(e);
  t.equal((await client.request('GET', '/v1/payments/g-1/refunds')).status, 501);
  t.equal((await client.request('GET', '/v1/payments/g-1/refunds/')).status, 501, 'a trailing slash does not count');
  t.equal((await client.request('GET', '/v1/payments/g-1')).status, 200, '* stands for one segment, not none');
  t.equal((await client.request('POST', '/v1/payments/g-1/refunds', { amount: 1 })).status, 201, 'another method');
  t.equal((await client.request('POST', '/v1/sessions', { amount: 1 })).status, 502, '** matches the rest, even none of it');
  t.equal((await client.request('GET', '/v1/sessions/cs_nope')).status, 404, 'GET is not faulted there');
});

t.test('config faults are in force from start in both modes, and come back after a reset', async (t) => {
  const e = await emulator(t, {
    config: { sources: [{ slug: 'acme', faults: [{ method: 'GET', path: '/v1/me', status: 503, times: 1 }] }] },
  });
  t.equal((await raw(e).request('GET', '/v1/me')).status, 503);
  t.equal((await raw(e, e.keys.live).request('GET', '/v1/me')).status, 503, 'live mode too, with its own count');
  t.equal((await e.api.get('/v1/me')).status, 200, 'retired');
  t.equal((await e.globex.get('/v1/me')).status, 200, 'another Source');

  await e.faults.add({ path: '/v1/sessions', status: 500 });
  await e.api.post('/_payemu/reset', {});
  const after = await e.faults.list();
  t.equal(after.length, 1, 'the added fault is gone, the config fault is back');
  t.equal(after[0]!.path, '/v1/me');
  t.equal(after[0]!.hits, 0);
  t.equal((await raw(e).request('GET', '/v1/me')).status, 503);
});

t.test('a config fault that is not valid is refused at start, naming the field', async (t) => {
  const { startEmulator } = await import('../src/index.js');
  await t.rejects(startEmulator({ config: { sources: [{ slug: 'acme', faults: [{ path: '/v1/me' }] }] } }), /sources\.0\.faults\.0\.status/);
  await t.rejects(startEmulator({ config: { sources: [{ slug: 'acme', faults: [{ path: '/v1/me', status: 700 }] }] } }), /sources\.0\.faults\.0\.status/);
});

t.test('the library: faults.add, list, remove, clear, as another key', async (t) => {
  const e = await emulator(t);
  const globex = e.sources.find((s) => s.slug === 'globex')!.test_key;
  const fault = await e.faults.add({ path: '/v1/me', status: 503 }, { key: globex });
  t.same(await e.faults.list(), []);
  t.same(
    (await e.faults.list({ key: globex })).map((f) => f.id),
    [fault.id],
  );
  t.equal((await e.faults.remove(fault.id, { key: globex })).id, fault.id);
  await e.faults.add({ path: '/v1/me', status: 503 });
  await e.faults.add({ path: '/v1/me', status: 504 });
  t.equal(await e.faults.clear(), 2);
  const refused = await e.faults.add({ path: 'nope', status: 503 }).catch((error: unknown) => error);
  t.equal((refused as { status?: number }).status, 422, 'a bad fault rejects with the 422');
});

t.test('a restart of a file-backed store keeps added faults as they stand and puts the config faults back afresh', async (t) => {
  const { startEmulator } = await import('../src/index.js');
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-faults-'));
  t.teardown(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const config = { sources: [{ slug: 'acme', faults: [{ method: 'GET', path: '/v1/me', status: 503, times: 1 }] }] };
  const first = await startEmulator({ inMemory: false, dataDir, config });
  const added = await first.faults.add({ method: 'POST', path: '/v1/sessions', status: 502, times: 3 });
  t.equal((await raw(first as TestEmulator).request('GET', '/v1/me')).status, 503, 'the config fault acts, and retires');
  t.equal((await raw(first as TestEmulator).request('POST', '/v1/sessions', { amount: 1 })).status, 502);
  await first.close();

  const second = await startEmulator({ inMemory: false, dataDir, config });
  t.teardown(() => second.close());
  const faults = await second.faults.list();
  t.same(
    faults.map((f) => [f.path, f.hits, f.id === added.id]),
    [
      ['/v1/sessions', 1, true],
      ['/v1/me', 0, false],
    ],
  );
  t.equal((await raw(second as TestEmulator).request('GET', '/v1/me')).status, 503);
});

t.test("a reset of everything puts every Source's config faults back", async (t) => {
  const e = await emulator(t, { config: { sources: [{ slug: 'globex', faults: [{ path: '/v1/**', status: 500, times: 1 }] }] } });
  t.equal((await raw(e, 'sk_test_payemu_globex').request('GET', '/v1/me')).status, 500);
  t.same((await e.globex.get('/_payemu/faults')).body.faults, []);
  await e.api.post('/_payemu/reset', { all: true });
  t.equal((await e.globex.get('/_payemu/faults')).body.faults.length, 1);
  t.equal((await e.live.get('/_payemu/faults')).body.faults.length, 0, 'acme has none');
});

t.test("the request's note names the fault that acted on it, for the request journal", async (t) => {
  const { v1 } = await import('../src/http/route.js');
  const { noteOf } = await import('../src/http/request-note.js');
  const probe = v1({ method: 'GET', path: '/v1/test-note', handle: ({ req }) => ({ status: 200, json: { fault: noteOf(req).fault } }) });
  const e = await emulator(t, { extraRoutes: [probe] });
  t.same((await raw(e).request('GET', '/v1/test-note')).body, { fault: null });
  const fault = await e.faults.add({ path: '/v1/test-note', latency_ms: 1, times: 1 });
  t.same((await raw(e).request('GET', '/v1/test-note')).body, { fault: fault.id });
});
