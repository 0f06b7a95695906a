import t from 'tap';
import { createClient } from '../src/client/client.js';
import { v1 } from '../src/http/route.js';
import { noteOf } from '../src/http/request-note.js';
import { assertError, emulator, pay } from './helpers/emulator.js';
import { type Entry, type Journal, journal } from './helpers/journal.js';

// The request journal (GET /_payemu/requests): what it keeps, filters, cuts and forgets. What it
// keeps of a request a fault acted on: request-journal-faults.test.ts.
t.test('each /v1 request is listed newest first with what was sent and what was answered', async (t) => {
  const e = await emulator(t, { freezeClock: true, clockStart: '2026-11-21T10:00:00Z' });
  const body = { amount: 100, reference: 'order-1' };
  const created = await e.api.post('/v1/sessions', body, { 'Idempotency-Key': 'key-1' });
  t.equal(created.status, 201);
  const again = await e.api.post('/v1/sessions', body, { 'Idempotency-Key': 'key-1' });
  t.equal(again.headers.get('idempotent-replayed'), 'true');
  await e.api.get('/v1/me?verbose=1&tag=a&tag=b');

  const { requests, total } = await journal(e);
  t.equal(total, 3);
  t.same(
    requests.map((r) => `${r.method} ${r.path} ${r.status}`),
    ['GET /v1/me 200', 'POST /v1/sessions 201', 'POST /v1/sessions 201'],
  );
  const [me, replay, first] = requests as [Entry, Entry, Entry];
  t.match(first, {
    id: /^req_[0-9A-Za-z]{24}$/,
    at: '2026-11-21T10:00:00.000000Z',
    query: {},
    idempotency_key: 'key-1',
    replayed: false,
    fault: null,
    request_body: body,
  });
  t.type(first.duration_ms, 'number');
  t.same(first.response_body, created.body, 'the answer as the client got it');
  t.match(replay, { idempotency_key: 'key-1', replayed: true });
  t.same(replay.response_body, created.body);
  t.same(me.query, { verbose: '1', tag: ['a', 'b'] }, 'the query as an object');
  t.equal(me.request_body, null, 'a GET sends no body');
  t.equal(me.idempotency_key, null);
  t.not(first.id, replay.id);
});

t.test('filters: method, path with * and **, status and class, since, limit with total', async (t) => {
  const e = await emulator(t, { freezeClock: true });
  await e.api.post('/v1/sessions', { amount: 10, reference: 'a' });
  await e.api.post('/v1/payments/a/refunds', { amount: 1 }); // 404 or 422: no payment yet
  await e.api.post('/v1/payments/b/refunds', {});
  await e.api.get('/v1/payments/a');
  await e.api.get('/v1/payments/a/refunds');
  const { at } = (await journal(e)).requests.at(-1)!;
  await e.clock.advance('1h');
  await e.api.post('/v1/sessions', { amount: 'x' });
  await e.api.get('/v1/me');

  const paths = async (query: string) => (await journal(e, query)).requests.map((r) => `${r.method} ${r.path}`);
  t.same(
    await paths('?method=post'),
    ['POST /v1/sessions', 'POST /v1/payments/b/refunds', 'POST /v1/payments/a/refunds', 'POST /v1/sessions'],
    'any letter case',
  );
  t.same(await paths('?path=/v1/payments/*/refunds&method=POST'), ['POST /v1/payments/b/refunds', 'POST /v1/payments/a/refunds'], '* is one segment');
  t.same(await paths('?path=/v1/payments/*'), ['GET /v1/payments/a'], '* does not cross a /');
  t.same(
    await paths('?path=/v1/payments/**'),
    ['GET /v1/payments/a/refunds', 'GET /v1/payments/a', 'POST /v1/payments/b/refunds', 'POST /v1/payments/a/refunds'],
    '** is the rest',
  );
  t.same(await paths('?path=/v1/me'), ['GET /v1/me'], 'a plain path matches itself');

  const statuses = async (query: string) => (await journal(e, query)).requests.map((r) => r.status);
  const all = await statuses('');
  t.same(
    await statuses('?status=422'),
    all.filter((s) => s === 422),
  );
  t.ok(all.filter((s) => s === 422).length >= 2, 'the refusals are there to filter');
  t.same(
    await statuses('?status=4xx'),
    all.filter((s) => s !== null && s >= 400 && s < 500),
  );
  t.same(
    await statuses('?status=2XX'),
    all.filter((s) => s !== null && s >= 200 && s < 300),
  );

  t.same(await paths(`?since=${encodeURIComponent(at)}`), ['GET /v1/me', 'POST /v1/sessions'], 'since is exclusive');

  const limited = await journal(e, '?limit=2');
  t.equal(limited.requests.length, 2);
  t.equal(limited.total, 7, 'total counts every match');
  t.equal((await journal(e, '?limit=1&method=GET')).total, 3);
  t.equal((await journal(e)).requests.length, 7, 'default limit 100');
});

t.test('a bad filter is a 422 in the envelope that names it', async (t) => {
  const e = await emulator(t);
  for (const query of [
    'limit=0',
    'limit=1001',
    'limit=ten',
    'status=4x',
    'status=600',
    'status=abc',
    'since=yesterday',
    'path=v1/me',
    'method=P%20ST',
    'limit=1&limit=2',
  ]) {
    const answer = await e.api.get(`/_payemu/requests?${query}`);
    assertError(t, answer, 422);
    t.ok(Object.keys(answer.body.errors[0].meta.errors).length > 0, `${query}: the field is named`);
  }
});

t.test('bodies: not JSON as text, over 16 KiB cut with a marker, keys never kept', async (t) => {
  const e = await emulator(t);
  await e.api.request('POST', '/v1/sessions', 'amount=10', { 'Content-Type': 'text/plain' });
  await e.api.request('POST', '/v1/sessions', '{"amount": 1,', { 'Content-Type': 'application/json' });
  const big = { amount: 10, reference: 'big', metadata: { note: 'é'.repeat(12_000) } };
  const created = await e.api.post('/v1/sessions', big, { 'X-API-Key': 'sk_test_payemu_acme' });
  t.equal(created.status, 201);
  const read = await e.api.get(`/v1/sessions/${created.body.data.id}`);
  const [answer, cut, malformed, text] = (await journal(e)).requests as [Entry, Entry, Entry, Entry];

  t.equal(text.status, 415);
  t.equal(text.request_body, 'amount=10', 'a body that is not JSON is its text');
  t.match(text.response_body, { errors: [{ status: '415' }] });
  t.equal(malformed.status, 400);
  t.equal(malformed.request_body, '{"amount": 1,', 'malformed JSON is its text');

  const sent = JSON.stringify(big);
  t.type(cut.request_body, 'string', 'a cut body is text');
  const request = cut.request_body as string;
  t.match(request, new RegExp(`…\\[cut: ${Buffer.byteLength(sent)} bytes\\]$`), 'ends with the marker and the whole size');
  const head = request.slice(0, request.lastIndexOf('…[cut:'));
  t.ok(Buffer.byteLength(head) <= 16 * 1024 && Buffer.byteLength(head) > 16 * 1024 - 4, 'the first 16 KiB');
  t.ok(sent.startsWith(head), 'as sent, no character split');
  t.equal(
    answer.response_body,
    `${Buffer.from(read.text)
      .subarray(0, 16 * 1024)
      .toString()
      .replace(/\uFFFD$/, '')}…[cut: ${Buffer.byteLength(read.text)} bytes]`,
    'a long answer is cut too',
  );
  t.same(cut.response_body, created.body, 'a short answer is whole');

  const everything = JSON.stringify(await journal(e));
  t.notMatch(everything, /sk_test_payemu_acme/, 'no key, whether sent as Authorization or X-API-Key');
  t.notMatch(everything, /Bearer/);
});

t.test("another Source's or mode's requests are not seen; refusals before authentication are not kept", async (t) => {
  const e = await emulator(t);
  await e.api.get('/v1/me');
  await e.live.get('/v1/me?mode=live');
  await e.globex.get('/v1/me?who=globex');
  assertError(t, await e.anon.get('/v1/me?who=nobody'), 401);
  await e.anon.get('/v1/me', { Authorization: 'Bearer sk_test_wrong' });
  await e.api.get('/v1/no-such-route');

  t.same(
    (await journal(e)).requests.map((r) => r.query),
    [{}],
    'acme test sees its one request',
  );
  t.same(
    (await journal(e, '', e.live)).requests.map((r) => r.query),
    [{ mode: 'live' }],
  );
  t.same(
    (await journal(e, '', e.globex)).requests.map((r) => r.query),
    [{ who: 'globex' }],
  );
});

t.test('DELETE empties the scope; a reset empties its scope; reset all empties every one', async (t) => {
  const e = await emulator(t);
  await e.api.get('/v1/me');
  await e.api.get('/v1/me');
  await e.live.get('/v1/me');
  await e.globex.get('/v1/me');

  const cleared = await e.api.request('DELETE', '/_payemu/requests');
  t.same(cleared.body, { removed: 2 });
  t.equal((await journal(e)).total, 0);
  t.equal((await journal(e, '', e.live)).total, 1, 'live mode keeps its own');

  await e.live.post('/_payemu/reset', {});
  t.equal((await journal(e, '', e.live)).total, 0, 'a reset of live mode empties its journal');
  t.equal((await journal(e, '', e.globex)).total, 1, "another Source's stays");

  await e.api.get('/v1/me');
  await e.api.post('/_payemu/reset', { all: true });
  t.equal((await journal(e)).total, 0);
  t.equal((await journal(e, '', e.globex)).total, 0, 'reset all empties every journal');
  t.equal((await journal(e)).total, 0, 'control-plane calls are not journaled');
});

t.test('the journal keeps the last N requests of a scope (journalSize)', async (t) => {
  const e = await emulator(t, { journalSize: 3 });
  for (let i = 1; i <= 5; i++) await e.api.get(`/v1/me?n=${i}`);
  await e.globex.get('/v1/me');
  const { requests, total } = await journal(e);
  t.equal(total, 3);
  t.same(
    requests.map((r) => r.query.n),
    ['5', '4', '3'],
  );
  t.equal((await journal(e, '', e.globex)).total, 1, 'each scope has its own ring');

  const none = await emulator(t, { journalSize: 0 });
  await none.api.get('/v1/me');
  t.equal((await journal(none)).total, 0, '0 keeps nothing');
  await t.rejects(() => emulator(t, { journalSize: -1 }), /--journal-size/);
});

t.test('the journal names the fault that acted on a request, and a connection closed unanswered', async (t) => {
  const e = await emulator(t, {
    extraRoutes: [
      v1({
        method: 'GET',
        path: '/v1/test-faulted',
        handle: ({ req }) => {
          noteOf(req).fault = 'flt_test';
          return { status: 503, json: { errors: [{ status: '503', title: 'Service Unavailable', detail: 'scripted' }] } };
        },
      }),
      v1({
        method: 'GET',
        path: '/v1/test-dropped',
        handle: ({ req, res }) => {
          noteOf(req).fault = 'flt_drop';
          res.socket?.destroy();
          return { status: 200, streamed: true };
        },
      }),
    ],
  });
  const headers = { Authorization: `Bearer ${e.keys.test}` };
  t.equal((await fetch(`${e.url}/v1/test-faulted`, { headers })).status, 503);
  await t.rejects(fetch(`${e.url}/v1/test-dropped`, { headers }));
  await e.idle();
  const [dropped, faulted] = (await journal(e)).requests as [Entry, Entry];
  t.match(faulted, { path: '/v1/test-faulted', status: 503, fault: 'flt_test' });
  t.match(dropped, { path: '/v1/test-dropped', status: null, fault: 'flt_drop', response_body: null });
});

t.test('library: emulator.requests(filter) and requests.clear(), for any key', async (t) => {
  const e = await emulator(t);
  await e.api.post('/v1/payments/none/refunds', { amount: 1 });
  await e.api.get('/v1/me');
  await e.live.get('/v1/me');

  const all = e.requests();
  t.equal(all.total, 2);
  t.same(all, await journal(e), 'the same as GET /_payemu/requests');
  all.requests[0]!.path = '/changed';
  t.equal(e.requests().requests[0]!.path, '/v1/me', 'a copy: changing it changes nothing');
  t.same(
    e.requests({ path: '/v1/payments/*/refunds', status: '4xx' }).requests.map((r) => r.method),
    ['POST'],
  );
  t.equal(e.requests({ status: 200, limit: 1 }).total, 1);
  t.equal(e.requests({ key: e.keys.live }).total, 1, 'another key, its own journal');
  t.throws(() => e.requests({ status: '4x' }), RangeError);
  t.throws(() => e.requests({ key: 'sk_test_nobody' }), TypeError);

  t.equal(e.requests.clear(), 2);
  t.equal(e.requests().total, 0);
  t.equal(e.requests({ key: e.keys.live }).total, 1, 'clear empties one scope');
});

/** What stands for a value nested deeper than 64 levels in a kept body. */
const DEEP = '…[cut: nested deeper than 64 levels]';
/** `levels` objects, each `{"n": ...}`, the innermost holding `leaf`. */
const nest = (levels: number, leaf: unknown = 1): unknown => {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { n: value };
  return value;
};

t.test('a body nested deeper than 64 levels is kept cut at 64 with a marker, and no entry makes a read fail', async (t) => {
  const e = await emulator(t, {
    config: {
      sources: [{ slug: 'acme', faults: [{ method: 'GET', path: '/v1/me', status: 503, body: nest(70), times: 1 }] }, { slug: 'globex' }],
    },
  });
  const { completed } = await pay(e, { amount: 10, reference: 'deep-1' });
  const paymentId = String(completed.body.payment.id);
  const json = { 'Content-Type': 'application/json' };
  const abyss = '['.repeat(5000) + ']'.repeat(5000);
  t.equal((await e.api.request('POST', '/v1/payments/deep-1/refunds', abyss, json)).status, 400, '5,000 levels: refused');
  const seventy = { amount: 1, reference: 'deep-1', metadata: nest(69) }; // 70 levels
  t.equal((await e.api.request('POST', '/v1/sessions', JSON.stringify(seventy), json)).status, 400, '70 levels: refused');
  const sixtyFour = { amount: 1, reference: 'deep-1', metadata: nest(63) }; // exactly 64
  t.not((await e.api.request('POST', '/v1/sessions', JSON.stringify(sixtyFour), json)).status, 400, '64 levels: read');
  const unclosed = '{"a":'.repeat(3000);
  t.equal((await e.api.request('POST', '/v1/sessions', unclosed, json)).status, 400);
  const deepAnswer = await createClient({ url: e.url, key: e.keys.test }).request('GET', '/v1/me');
  t.equal(deepAnswer.status, 503, "a config fault's answer 70 levels deep");

  const read = await e.api.get('/_payemu/requests');
  t.equal(read.status, 200, 'GET /_payemu/requests answers');
  const [answer, broken, whole, cut, deepest] = (read.body as Journal).requests as [Entry, Entry, Entry, Entry, Entry];

  const arrays = (levels: number, leaf: unknown): unknown => {
    let value = leaf;
    for (let i = 0; i < levels; i++) value = [value];
    return value;
  };
  t.same(deepest.request_body, arrays(63, [DEEP]), '5,000 levels: the 64 first, the 65th a marker');
  t.match(deepest, { request_body_cut: true, response_body_cut: false, status: 400 });
  t.same(cut.request_body, { amount: 1, reference: 'deep-1', metadata: nest(62, { n: DEEP }) }, '70 levels: cut at 64');
  t.equal(cut.request_body_cut, true);
  t.same(whole.request_body, sixtyFour, '64 levels: whole');
  t.equal(whole.request_body_cut, false);
  t.equal(broken.request_body, unclosed, 'JSON that does not parse is its text, however deep');
  t.equal(broken.request_body_cut, false);
  t.same(answer.response_body, nest(64, DEEP), 'an answer is cut the same way');
  t.match(answer, { response_body_cut: true, request_body_cut: false, fault: /^flt_/ });

  const pages = [`/_payemu/dashboard/requests`, `/_payemu/dashboard/payments/${paymentId}`, '/_payemu/dashboard'];
  for (const page of pages) {
    const html = await fetch(`${e.url}${page}`);
    t.equal(html.status, 200, `${page} answers`);
    if (page.endsWith('requests')) t.match(await html.text(), 'nested deeper than 64 levels');
    else await html.arrayBuffer();
  }
  t.same(e.requests(), read.body, 'the library reads it too');
});

t.test('the cut at 64 levels reads strings as strings: brackets and escaped quotes in them, deep siblings each cut', async (t) => {
  const e = await emulator(t);
  const tricky = `"]}\\"[{${'['.repeat(80)}`;
  const sent = { note: tricky, a: nest(70), b: [nest(64), 2], c: { text: '{'.repeat(100) } };
  const answer = await e.api.request('POST', '/v1/sessions', JSON.stringify(sent), { 'Content-Type': 'application/json' });
  t.equal(answer.status, 400);
  const [entry] = (await journal(e)).requests as [Entry];
  t.same(entry.request_body, { note: tricky, a: nest(62, { n: DEEP }), b: [nest(61, { n: DEEP }), 2], c: { text: '{'.repeat(100) } });
  t.equal(entry.request_body_cut, true);
});
