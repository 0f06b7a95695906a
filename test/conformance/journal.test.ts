import t from 'tap';
import { assertError, emulator, type TestEmulator } from '../helpers/emulator.js';

// payemu's request journal (`GET` and `DELETE /_payemu/requests`): the last `/v1` requests of
// each Source and mode, what was sent and what was answered. Each test is titled with the
// sentence it checks. Each test starts its own payemu: the journal is per run.

const journal = async (e: TestEmulator, query = '', as = e.api) => {
  const answer = await as.get(`/_payemu/requests${query}`);
  if (answer.status !== 200) throw new Error(`journal: ${answer.status} ${answer.text}`);
  return answer.body as { requests: Record<string, any>[]; total: number };
};
const lines = (requests: Record<string, any>[]) => requests.map((r) => `${r.method} ${r.path} ${r.status}`);

t.test(
  'GET /_payemu/requests lists the Source\'s /v1 requests newest first: {"requests": [{id, at, method, path, query, status, duration_ms, idempotency_key, replayed, fault, request_body, response_body}], "total": N}',
  async (t) => {
    const e = await emulator(t, { clockStart: '2027-01-10T09:00:00Z', freezeClock: true });
    const sent = { amount: 10, reference: 'j-1' };
    const created = await e.api.post('/v1/sessions', sent, { 'Idempotency-Key': 'j-key' });
    await e.api.post('/_payemu/clock/advance', { by: 60 });
    const again = await e.api.post('/v1/sessions', sent, { 'Idempotency-Key': 'j-key' });
    t.equal(again.headers.get('idempotent-replayed'), 'true');
    await e.api.get('/v1/payments/nope');
    const { requests, total } = await journal(e);
    t.equal(total, 3);
    t.same(lines(requests), ['GET /v1/payments/nope 404', 'POST /v1/sessions 201', 'POST /v1/sessions 201'], 'newest first; control-plane calls not kept');
    const [, replay, first] = requests;
    t.same(
      Object.keys(first!).filter((k) => !k.endsWith('_cut')),
      ['id', 'at', 'method', 'path', 'query', 'status', 'duration_ms', 'idempotency_key', 'replayed', 'fault', 'request_body', 'response_body'],
    );
    t.match(first, {
      id: /^req_[0-9A-Za-z]{24}$/,
      at: '2027-01-10T09:00:00.000000Z',
      method: 'POST',
      path: '/v1/sessions',
      query: {},
      status: 201,
      duration_ms: Number,
      idempotency_key: 'j-key',
      replayed: false,
      fault: null,
    });
    t.same(first!.request_body, sent, 'the JSON as sent');
    t.same(first!.response_body, created.body, 'the JSON as answered');
    t.match(replay, { at: '2027-01-10T09:01:00.000000Z', replayed: true, idempotency_key: 'j-key' });
    t.same(replay!.response_body, created.body);
    t.not(replay!.id, first!.id);
  },
);

t.test('total counts every match; limit default 100', async (t) => {
  const e = await emulator(t, { freezeClock: true });
  for (let i = 0; i < 105; i++) await e.api.get('/v1/me');
  const all = await journal(e);
  t.equal(all.requests.length, 100, 'limit defaults to 100');
  t.equal(all.total, 105, 'total counts every match');
  const two = await journal(e, '?limit=2');
  t.equal(two.requests.length, 2);
  t.equal(two.total, 105);
  t.same(
    two.requests.map((r) => r.id),
    all.requests.slice(0, 2).map((r) => r.id),
    'the newest two',
  );
  assertError(t, await e.api.get('/_payemu/requests?limit=0'), 422);
});

t.test('path takes * for one segment and ** for the rest (/v1/payments/*/refunds); status takes 422 or 4xx; method', async (t) => {
  const e = await emulator(t, { freezeClock: true });
  await e.api.post('/v1/sessions', { amount: 1, reference: 'jp-1' });
  await e.api.post('/v1/payments/jp-1/refunds', { amount: 5 });
  await e.api.get('/v1/payments/jp-1/refunds');
  await e.api.get('/v1/payments/jp-1');
  await e.api.post('/v1/sessions', { amount: -1 });
  const paths = async (query: string) => lines((await journal(e, query)).requests);
  t.same(await paths('?path=/v1/payments/*/refunds'), ['GET /v1/payments/jp-1/refunds 404', 'POST /v1/payments/jp-1/refunds 404']);
  t.same(await paths('?path=/v1/payments/*'), ['GET /v1/payments/jp-1 404'], '* is one segment');
  t.same(
    await paths('?path=/v1/payments/**'),
    ['GET /v1/payments/jp-1 404', 'GET /v1/payments/jp-1/refunds 404', 'POST /v1/payments/jp-1/refunds 404'],
    '** the rest',
  );
  t.same(await paths('?status=422'), ['POST /v1/sessions 422']);
  t.same((await journal(e, '?status=4xx')).total, 4, 'a class');
  t.same(await paths('?status=2xx'), ['POST /v1/sessions 201']);
  t.same(await paths('?method=post&status=4xx'), ['POST /v1/sessions 422', 'POST /v1/payments/jp-1/refunds 404'], 'method in any case, filters combined');
  assertError(t, await e.api.get('/_payemu/requests?status=4x'), 422);
  assertError(t, await e.api.get('/_payemu/requests?path=v1'), 422);
});

t.test('since is an exclusive timestamp; query is an object', async (t) => {
  const e = await emulator(t, { clockStart: '2027-01-10T09:00:00Z', freezeClock: true });
  await e.api.get('/v1/me?a=1');
  await e.api.post('/_payemu/clock/advance', { by: 1 });
  await e.api.get('/v1/payments?page[size]=5&filter[status]=PAID&tag=x&tag=y');
  const [second, first] = (await journal(e)).requests;
  t.same(first!.query, { a: '1' });
  t.same(second!.query, { 'page[size]': '5', 'filter[status]': 'PAID', tag: ['x', 'y'] }, 'as sent: strings, a repeated parameter an array');
  t.same(lines((await journal(e, `?since=${first!.at}`)).requests), ['GET /v1/payments 200'], 'exclusive: the request at `since` is left out');
  t.equal((await journal(e, `?since=${second!.at}`)).total, 0);
  t.equal((await journal(e, '?since=2027-01-10T08:00:00Z')).total, 2);
  assertError(t, await e.api.get('/_payemu/requests?since=yesterday'), 422);
});

t.test('bodies are the JSON as sent and answered (a non-JSON body as a string), cut at 16 KiB', async (t) => {
  const e = await emulator(t, { freezeClock: true });
  await e.api.post('/v1/sessions', 'amount=1', { 'Content-Type': 'text/plain' });
  await e.api.post('/v1/sessions', '{"amount": 1,', { 'Content-Type': 'application/json' });
  const big = JSON.stringify({ amount: 1, reference: 'jb-1', description: 'é'.repeat(20000) });
  await e.api.post('/v1/sessions', big);
  const [cut, malformed, text] = (await journal(e)).requests;
  t.match(text, { status: 415, request_body: 'amount=1' });
  t.match(malformed, { status: 400, request_body: '{"amount": 1,' });
  t.type(malformed!.response_body, 'object', 'the answer is JSON');
  t.type(cut!.request_body, 'string', 'a body over 16 KiB is kept as text');
  t.match(cut!.request_body, new RegExp(`…\\[cut: ${Buffer.byteLength(big)} bytes\\]$`), 'with a marker and the whole size');
  t.ok(Buffer.byteLength(cut!.request_body.replace(/…\[cut: \d+ bytes\]$/, '')) <= 16 * 1024, 'at most 16 KiB of it');
  t.ok(big.startsWith(cut!.request_body.replace(/…\[cut: \d+ bytes\]$/, '')), 'its beginning');
  t.equal(cut!.request_body_cut, true);
});

t.test('keys (Authorization, X-API-Key) are never stored; requests refused before authentication are not journaled', async (t) => {
  const e = await emulator(t, { freezeClock: true });
  await e.api.get('/v1/me');
  await fetch(`${e.url}/v1/me`, { headers: { 'X-API-Key': 'sk_test_payemu_acme' } });
  await e.anon.get('/v1/me');
  await fetch(`${e.url}/v1/me`, { headers: { Authorization: 'Bearer sk_test_nobody' } });
  await fetch(`${e.url}/v1/me`, { headers: { 'X-API-Key': 'sk_test_payemu_acme_' } });
  const read = await e.api.get('/_payemu/requests');
  t.equal(read.body.total, 2, 'the two authenticated requests only');
  t.notMatch(read.text, /sk_test_|sk_live_|Bearer|x-api-key|authorization/i, 'no key anywhere');
  t.equal((await journal(e, '', e.live)).total, 0, 'per mode');
  t.equal((await journal(e, '', e.globex)).total, 0, 'per Source');
});

t.test('The last N requests per Source and mode are kept in memory (--journal-size N, default 1,000)', async (t) => {
  const e = await emulator(t, { freezeClock: true, journalSize: 3 });
  for (let i = 1; i <= 5; i++) await e.api.get(`/v1/me?n=${i}`);
  await e.globex.get('/v1/me');
  const { requests, total } = await journal(e);
  t.equal(total, 3);
  t.same(
    requests.map((r) => r.query.n),
    ['5', '4', '3'],
    'the newest make room',
  );
  t.equal((await journal(e, '', e.globex)).total, 1, 'each Source its own');
  const standard = await emulator(t, { freezeClock: true });
  for (let i = 0; i < 1001; i++) await standard.api.get('/v1/me');
  t.equal((await journal(standard, '?limit=1000')).total, 1000, 'default 1,000');
});

t.test('a restart or a reset of that scope empties it; DELETE /_payemu/requests empties it', async (t) => {
  const dataDir = t.testdir();
  const first = await emulator(t, { inMemory: false, dataDir, freezeClock: true });
  await first.api.get('/v1/me');
  t.equal((await journal(first)).total, 1);
  await first.close();
  const second = await emulator(t, { inMemory: false, dataDir, freezeClock: true });
  t.equal((await journal(second)).total, 0, 'a restart empties it');
  await second.api.get('/v1/me');
  await second.globex.get('/v1/me');
  t.equal((await second.api.post('/_payemu/reset', {})).status, 200);
  t.equal((await journal(second)).total, 0, 'a reset of the scope empties it');
  t.equal((await journal(second, '', second.globex)).total, 1, 'not another scope');
  await second.api.get('/v1/me');
  const cleared = await fetch(`${second.url}/_payemu/requests`, { method: 'DELETE', headers: { 'X-API-Key': 'sk_test_payemu_acme' } });
  t.equal(cleared.status, 200);
  t.same(await cleared.json(), { removed: 1 });
  t.equal((await journal(second)).total, 0, 'DELETE empties it');
  t.equal((await journal(second, '', second.globex)).total, 1, "the key's scope only");
});

t.test(
  'A body that cannot be stored whole (nested deeper than 64 levels, over 16 KiB) is stored cut, with a marker, and no entry can make a journal read fail',
  async (t) => {
    const e = await emulator(t, { freezeClock: true });
    const deep = (n: number): string => (n === 0 ? '1' : `[${deep(n - 1)}]`);
    const huge = (n: number): string => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
    await e.api.post('/v1/sessions', deep(70));
    await e.api.post('/v1/sessions', deep(64));
    await e.api.post('/v1/sessions', huge(100_000));
    await e.api.post('/v1/sessions', `{"amount":1,"metadata":{"k":"${'x'.repeat(20_000)}"}}`);
    const read = await e.api.get('/_payemu/requests');
    t.equal(read.status, 200, 'the read does not fail');
    const [long, deepest, whole, cut] = read.body.requests;
    let innermost = cut.request_body;
    for (let level = 1; level < 64; level++) innermost = innermost[0];
    t.same(innermost, ['…[cut: nested deeper than 64 levels]'], '70 levels: kept to level 64, the rest a marker');
    t.equal(cut.request_body_cut, true);
    t.same(whole.request_body, JSON.parse(deep(64)), '64 levels: whole');
    t.equal(whole.request_body_cut, false);
    t.type(deepest.request_body, 'string', 'a huge deep body is cut at 16 KiB, as text');
    t.equal(deepest.request_body_cut, true);
    t.match(long.request_body, /…\[cut: \d+ bytes\]$/);
    t.equal((await e.api.get('/_payemu/requests?limit=1000')).status, 200);
  },
);
