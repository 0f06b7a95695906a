import t from 'tap';
import { assertError, client, emulator, pay } from '../helpers/emulator.js';

// Section: a key ending in ~NAME is a whole emulator of its own; nothing crosses between namespaces.

const KEY = 'sk_test_payemu_acme';

t.test('a key with ~NAME picks a namespace; a bad NAME is a 401 saying what a name allows', async (t) => {
  const e = await emulator(t);
  for (const bad of ['', 'W3', 'a.b', 'x'.repeat(33), 'ü']) {
    const res = await client(e.url, `${KEY}~${bad}`).get('/v1/me');
    assertError(t, res, 401, /namespace name .* invalid.*1 to 32 characters of a-z, 0-9, _ and -/);
  }
  // A suffix on a key that is not one is the ordinary 401.
  assertError(t, await client(e.url, 'sk_test_nobody~w3').get('/v1/me'), 401, /Invalid or missing API key/);
  t.equal((await client(e.url, `${KEY}~${'x'.repeat(32)}`).get('/v1/me')).status, 200, '32 characters are fine');
  // X-API-Key takes the suffix too.
  const viaHeader = await client(e.url, undefined).get('/v1/me', { 'X-API-Key': `${KEY}~w3` });
  t.equal(viaHeader.status, 200);
  const names = (await e.api.get('/_payemu/namespaces')).body.namespaces.map((n: { name: string }) => n.name);
  t.same(names, ['w3', 'x'.repeat(32)], 'made on their first request; the refused ones were not; the default is not listed');
});

t.test('records, ids, references, idempotency keys and journals are per namespace', async (t) => {
  const e = await emulator(t);
  const a = client(e.url, `${KEY}~a`);
  const b = client(e.url, `${KEY}~b`);
  const dflt = client(e.url, `${KEY}~default`);
  const ids: number[] = [];
  for (const as of [a, b, dflt, e.api]) {
    const { completed } = await pay(e, { amount: 10, reference: 'order-1' }, '4242424242424242', as);
    ids.push(completed.body.payment.id);
  }
  t.same(ids, [1, 1, 1, 1], 'payment ids start at 1 in each, and the same reference is fine in each (~default is a named one)');
  const idem = { 'Idempotency-Key': 'same-key' };
  const first = await a.post('/v1/sessions', { amount: 5 }, idem);
  const second = await b.post('/v1/sessions', { amount: 7 }, idem);
  t.equal(first.status, 201);
  t.equal(second.status, 201, 'the same key with another body in another namespace is no conflict');
  t.not(first.body.data.id, second.body.data.id);
  t.equal((await a.get(`/v1/sessions/${second.body.data.id}`)).status, 404, "b's session is not found in a");
  t.equal((await e.api.get(`/v1/sessions/${first.body.data.id}`)).status, 404, "a's session is not found in the default");
  const journalA = (await a.get('/_payemu/requests')).body;
  const journalDefault = (await e.api.get('/_payemu/requests')).body;
  t.ok(journalA.requests.every((r: { path: string }) => r.path !== '/v1/me'));
  t.equal(journalA.requests.filter((r: { path: string }) => r.path === '/v1/sessions').length, 2, "a's journal holds a's requests");
  t.equal(journalDefault.requests.filter((r: { path: string }) => r.path === '/v1/sessions').length, 1, "the default's its own");
  const eventsA = (await a.get('/_payemu/events')).body;
  const eventsB = (await b.get('/_payemu/events')).body;
  t.ok(eventsA.events.length > 0);
  t.same(
    new Set(eventsA.events.map((ev: { id: string }) => ev.id)).size + new Set(eventsB.events.map((ev: { id: string }) => ev.id)).size,
    eventsA.events.length + eventsB.events.length,
  );
  t.notOk(
    eventsA.events.some((ev: { id: string }) => eventsB.events.some((other: { id: string }) => other.id === ev.id)),
    'no event in both',
  );
});

t.test('faults, outcomes, triggers and resets act in their namespace only', async (t) => {
  const e = await emulator(t);
  const a = client(e.url, `${KEY}~a`);
  t.equal((await a.post('/_payemu/faults', { path: '/v1/sessions', status: 503 })).status, 201);
  t.equal((await a.post('/v1/sessions', { amount: 1 })).status, 503, "a's fault acts in a");
  t.equal((await e.api.post('/v1/sessions', { amount: 1 })).status, 201, 'not in the default');
  t.same((await e.api.get('/_payemu/faults')).body.faults, []);
  t.equal((await a.request('DELETE', '/_payemu/faults')).status, 200);

  const triggered = await a.post('/_payemu/trigger', { event: 'payment.completed' });
  t.equal(triggered.status, 200, triggered.text);
  t.equal((await a.get('/v1/payments')).body.data.length, 1, 'a trigger in a makes its payment in a');
  t.equal((await e.api.get('/v1/payments')).body.data.length, 0, 'none in the default');

  await pay(e, { amount: 2 });
  const reset = await a.post('/_payemu/reset', {});
  t.equal(reset.status, 200);
  t.equal((await a.get('/v1/payments')).body.data.length, 0, 'a reset in a empties a');
  t.equal((await e.api.get('/v1/payments')).body.data.length, 1, "the default's payment is still there");
});

t.test('each namespace has its own clock, born where the default stands; due work runs in its own', async (t) => {
  const e = await emulator(t, { freezeClock: true, clockStart: '2030-01-01T00:00:00.000000Z' });
  t.equal((await e.api.post('/_payemu/clock/advance', { by: '2d' })).status, 200);
  const a = client(e.url, `${KEY}~a`);
  const b = client(e.url, `${KEY}~b`);
  const born = (await a.get('/_payemu/clock')).body;
  t.same(born, { now: '2030-01-03T00:00:00.000000Z', offset_seconds: born.offset_seconds, frozen: true }, "a new namespace's clock is the default's, frozen");
  const inA = await a.post('/v1/sessions', { amount: 1 });
  const inB = await b.post('/v1/sessions', { amount: 1 });
  const advanced = await a.post('/_payemu/clock/advance', { by: '30d' });
  t.equal(advanced.status, 200);
  t.equal((await a.get('/_payemu/clock')).body.now, '2030-02-02T00:00:00.000000Z');
  t.equal((await b.get('/_payemu/clock')).body.now, '2030-01-03T00:00:00.000000Z', "a's advance does not move b's clock");
  t.equal((await e.api.get('/_payemu/clock')).body.now, '2030-01-03T00:00:00.000000Z', "nor the default's");
  t.equal((await a.get(`/v1/sessions/${inA.body.data.id}`)).body.data.attributes.status ?? 'expired', 'expired', "a's session expired");
  const bSession = await b.get(`/v1/sessions/${inB.body.data.id}`);
  t.not(bSession.body.data.attributes.status, 'expired', "b's session did not");
  const names = (await e.api.get('/_payemu/namespaces')).body.namespaces;
  t.same(
    names.map((n: { name: string; clock: { now: string } }) => [n.name, n.clock.now]),
    [
      ['a', '2030-02-02T00:00:00.000000Z'],
      ['b', '2030-01-03T00:00:00.000000Z'],
    ],
  );
  // reset all in a: all of a, its clock back to where the default's stands.
  const all = await a.post('/_payemu/reset', { all: true });
  t.equal(all.body.now, '2030-01-03T00:00:00.000000Z');
});

t.test('GET /_payemu/namespaces counts; DELETE drops one, which starts afresh', async (t) => {
  const e = await emulator(t);
  const a = client(e.url, `${KEY}~a`);
  await pay(e, { amount: 3 }, '4242424242424242', a);
  await pay(e, { amount: 4 }, '4242424242424242', a);
  const listed = (await client(e.url, 'sk_live_payemu_globex').get('/_payemu/namespaces')).body.namespaces;
  t.equal(listed.length, 1, 'any key lists them, and listing makes none');
  t.match(listed[0], { name: 'a', created_at: String, clock: { frozen: false }, counts: { payments: 2, sessions: 2, refunds: 0 } });
  assertError(t, await e.api.request('DELETE', '/_payemu/namespaces/nope'), 404, /no namespace "nope"/);
  const dropped = await client(e.url, 'sk_test_payemu_globex~zz').request('DELETE', '/_payemu/namespaces/a');
  t.same(dropped.body, { deleted: 'a' });
  t.same((await e.api.get('/_payemu/namespaces')).body.namespaces, [], 'the deleting key made no namespace either');
  const again = await pay(e, { amount: 5 }, '4242424242424242', a);
  t.equal(again.completed.body.payment.id, 1, 'the same name starts afresh');
});

t.test('--max-namespaces bounds the named ones: one more is a 429 naming the limit', async (t) => {
  const e = await emulator(t, { maxNamespaces: 2 });
  t.equal((await client(e.url, `${KEY}~one`).get('/v1/me')).status, 200);
  t.equal((await client(e.url, `${KEY}~two`).get('/v1/me')).status, 200);
  assertError(t, await client(e.url, `${KEY}~three`).get('/v1/me'), 429, /2 namespaces, the most --max-namespaces allows/);
  t.equal((await e.api.get('/v1/me')).status, 200, 'the default is not counted');
  t.equal((await client(e.url, `${KEY}~two`).get('/v1/me')).status, 200, 'existing ones still answer');
  await e.api.request('DELETE', '/_payemu/namespaces/one');
  t.equal((await client(e.url, `${KEY}~three`).get('/v1/me')).status, 200, 'a deleted one frees a place');
});
