import t, { type Test } from 'tap';
import { assertError, client, emulator, pay, type Answer, type TestEmulator } from './helpers/emulator.js';

// SPEC.md Authentication, DESIGN.md section 3 (isolation of Sources and modes, references shared
// across the merchant's Sources) and the rate limit of SPEC.md Limits / DESIGN.md 4b.

const LIVE_CARD = '4111111111111111'; // Luhn-valid, not a test card: approved in live mode

/** A request with exactly these headers (no key added). */
const raw = (url: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> =>
  client(url, undefined).request(method, path, body, headers);

function assertUnauthorized(t: Test, res: Answer, what: string): void {
  t.test(what, async (t) => {
    assertError(t, res, 401, /secret key/i);
    t.match(res.body.errors[0].detail, /Bearer/, 'the detail asks for a Bearer token');
    t.equal(res.body.errors[0].title, 'Unauthorized');
    t.equal(res.headers.get('www-authenticate'), 'Bearer');
    t.equal(res.headers.get('x-ratelimit-limit'), null, 'no rate-limit headers before the key is known');
  });
}

t.test('the key as a Bearer token or in X-API-Key', async (t) => {
  const e = await emulator(t);
  for (const [name, headers] of [
    ['Authorization: Bearer', { Authorization: 'Bearer sk_test_payemu_acme' }],
    ['Authorization: bearer (scheme in any case)', { Authorization: 'bearer sk_test_payemu_acme' }],
    ['X-API-Key', { 'X-API-Key': 'sk_test_payemu_acme' }],
  ] as const) {
    const me = await raw(e.url, 'GET', '/v1/me', headers);
    t.equal(me.status, 200, `${name}: GET /v1/me`);
    t.match(me.body.data.attributes, { slug: 'acme', mode: 'test' });
    const created = await raw(e.url, 'POST', '/v1/sessions', { ...headers, 'Content-Type': 'application/json' }, JSON.stringify({ amount: 1 }));
    t.equal(created.status, 201, `${name}: POST /v1/sessions`);
    t.equal((await raw(e.url, 'GET', '/_payemu/clock', headers)).status, 200, `${name}: the control plane`);
  }
  const live = await raw(e.url, 'GET', '/v1/me', { 'X-API-Key': 'sk_live_payemu_globex' });
  t.match(live.body.data.attributes, { slug: 'globex', mode: 'live' });
});

t.test('a missing or invalid key is a 401 asking for a secret key as a Bearer token', async (t) => {
  const e = await emulator(t);
  const cases: [string, Record<string, string>][] = [
    ['no key at all', {}],
    ['a wrong key', { Authorization: 'Bearer sk_test_wrong' }],
    ['a key in the wrong case', { Authorization: 'Bearer SK_TEST_PAYEMU_ACME' }],
    ['"Bearer" with nothing', { Authorization: 'Bearer' }],
    ['"Bearer " with only a space', { Authorization: 'Bearer ' }],
    ['a bare key without "Bearer"', { Authorization: 'sk_test_payemu_acme' }],
    ['a Basic header', { Authorization: `Basic ${Buffer.from('sk_test_payemu_acme:').toString('base64')}` }],
    ['two tokens', { Authorization: 'Bearer sk_test_payemu_acme extra' }],
    ['an empty X-API-Key', { 'X-API-Key': '' }],
    ['a wrong X-API-Key', { 'X-API-Key': 'sk_live_wrong' }],
    ['the webhook secret as a key', { 'X-API-Key': 'whsec_payemu_acme' }],
  ];
  for (const [name, headers] of cases) {
    assertUnauthorized(t, await raw(e.url, 'GET', '/v1/me', headers), `GET /v1/me: ${name}`);
  }
  assertUnauthorized(t, await raw(e.url, 'GET', '/v1/payments', {}), 'GET /v1/payments without a key');
  assertUnauthorized(t, await raw(e.url, 'GET', '/_payemu/clock', {}), 'the control plane without a key');
  // Authentication comes first: a bad body without a key is a 401, not a 400 or 415.
  assertUnauthorized(t, await raw(e.url, 'POST', '/v1/sessions', { 'Content-Type': 'application/json' }, '{bad'), 'POST with malformed JSON and no key');
  assertUnauthorized(t, await raw(e.url, 'POST', '/v1/sessions', { 'Content-Type': 'text/plain' }, 'amount=1'), 'POST with a text body and no key');
  // Health needs no key.
  t.equal((await raw(e.url, 'GET', '/_payemu/health', {})).status, 200);
});

/** A session and a paid payment made with `as`; returns the session id. */
async function paid(e: TestEmulator, as = e.api, reference: string, card = '4242424242424242') {
  const { session, completed } = await pay(e, { amount: 12.34, reference, customer_email: 'a@example.com' }, card, as);
  if (completed.status !== 200 || !completed.body.payment.paid) throw new Error(`not paid: ${completed.text}`);
  return session.body.data.id as string;
}

t.test('test and live data are isolated', async (t) => {
  const e = await emulator(t);
  const testSession = await paid(e, e.api, 'iso_test');
  const liveSession = await paid(e, e.live, 'iso_live', LIVE_CARD);

  assertError(t, await e.live.get(`/v1/sessions/${testSession}`), 404);
  assertError(t, await e.live.get('/v1/payments/iso_test'), 404);
  assertError(t, await e.api.get(`/v1/sessions/${liveSession}`), 404);
  assertError(t, await e.api.get('/v1/payments/iso_live'), 404);
  t.equal((await e.api.get(`/v1/sessions/${testSession}`)).status, 200);
  t.equal((await e.live.get('/v1/payments/iso_live')).status, 200);

  const liveList = await e.live.get('/v1/payments');
  t.same(
    liveList.body.data.map((p: any) => p.attributes.reference),
    ['iso_live'],
    "live lists none of test's payments",
  );
  t.equal(liveList.body.meta.total, 1);
  const testList = await e.api.get('/v1/payments');
  t.same(
    testList.body.data.map((p: any) => p.attributes.reference),
    ['iso_test'],
  );

  // The control plane is scoped the same way.
  const open = await e.api.post('/v1/sessions', { amount: 3 });
  assertError(t, await e.live.post(`/_payemu/sessions/${open.body.data.id}/complete`, { card_number: LIVE_CARD }), 404);
  // The same reference in the other mode is a separate payment.
  t.equal((await e.live.post('/v1/sessions', { amount: 1, reference: 'iso_test' })).status, 201);
});

t.test('Sources are isolated: another Source gets a 404, not a 403', async (t) => {
  const e = await emulator(t);
  const session = await paid(e, e.api, 'ref_only');
  const open = await e.api.post('/v1/sessions', { amount: 5 });

  for (const path of [`/v1/sessions/${session}`, `/v1/sessions/${open.body.data.id}`, '/v1/payments/ref_only']) {
    const res = await e.globex.get(path);
    assertError(t, res, 404);
    t.notMatch(res.text, /acme/i, 'says nothing of the other Source');
  }
  assertError(t, await e.globex.post(`/_payemu/sessions/${open.body.data.id}/complete`, { card_number: '4242424242424242' }), 404);
  const list = await e.globex.get('/v1/payments');
  t.same(list.body.data, []);
  t.equal(list.body.meta.total, 0);
  const globexLive = client(e.url, 'sk_live_payemu_globex');
  assertError(t, await globexLive.get('/v1/payments/ref_only'), 404);
  // And acme still sees its own.
  t.equal((await e.api.get(`/v1/sessions/${open.body.data.id}`)).body.data.attributes.status, 'open');
});

t.test('a reference used by another Source of the merchant is a 409 that reveals nothing', async (t) => {
  const e = await emulator(t);
  await paid(e, e.api, 'order-77');
  const conflict = await e.globex.post('/v1/sessions', { amount: 50, reference: 'order-77' });
  assertError(t, conflict, 409);
  const error = conflict.body.errors[0];
  t.equal(error.title, 'Conflict');
  t.notOk(error.meta, 'no meta');
  for (const secret of [/12[.,]34/, /1234/, /PAID/i, /paid/, /acme/i, /Acme Store/, /USD/, /a@example\.com/, /4242/, /visa/i, /payment_id|"id"/]) {
    t.notMatch(conflict.text, secret, `nothing of acme's payment: ${secret}`);
  }
  // The same answer as a reference that only has an open session at acme: no way to tell them apart.
  await e.api.post('/v1/sessions', { amount: 9.99, reference: 'order-78' });
  const openConflict = await e.globex.post('/v1/sessions', { amount: 50, reference: 'order-78' });
  assertError(t, openConflict, 409);
  t.equal(openConflict.body.errors[0].detail, error.detail.replace('order-77', 'order-78'), 'the same detail either way');

  // In live mode the reference is free (and once globex uses it there, it is globex's in live).
  t.equal((await client(e.url, 'sk_live_payemu_globex').post('/v1/sessions', { amount: 50, reference: 'order-77' })).status, 201);
  assertError(t, await e.live.post('/v1/sessions', { amount: 50, reference: 'order-77' }), 409);
  // globex's test reference space is otherwise untouched.
  t.equal((await e.globex.post('/v1/sessions', { amount: 50, reference: 'order-79' })).status, 201);
});

t.test('X-RateLimit-* headers on /v1, not on /_payemu', async (t) => {
  const e = await emulator(t);
  const remaining: number[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await e.api.get('/v1/me');
    t.equal(res.headers.get('x-ratelimit-limit'), '6000');
    remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
  }
  t.same(remaining, [5999, 5998, 5997], 'remaining decreases by one a request');
  // Every /v1 answer once the key is known counts and carries them, errors included.
  const created = await e.api.post('/v1/sessions', { amount: 1 });
  t.equal(created.headers.get('x-ratelimit-remaining'), '5996');
  const missing = await e.api.get('/v1/payments/nope');
  t.equal(missing.status, 404);
  t.equal(missing.headers.get('x-ratelimit-remaining'), '5995');
  const invalid = await e.api.post('/v1/sessions', { amount: -1 });
  t.equal(invalid.status, 422);
  t.equal(invalid.headers.get('x-ratelimit-limit'), '6000');

  // Not on the control plane, which is not counted either.
  for (const path of ['/_payemu/clock', '/_payemu/health']) {
    const res = await e.api.get(path);
    t.equal(res.status, 200);
    t.equal(res.headers.get('x-ratelimit-limit'), null, `${path}: no X-RateLimit-Limit`);
    t.equal(res.headers.get('x-ratelimit-remaining'), null, `${path}: no X-RateLimit-Remaining`);
  }
  t.equal((await e.api.get('/v1/me')).headers.get('x-ratelimit-remaining'), '5993', '/_payemu requests were not counted');

  // One window per Source and mode.
  t.equal((await e.live.get('/v1/me')).headers.get('x-ratelimit-remaining'), '5999');
  t.equal((await e.globex.get('/v1/me')).headers.get('x-ratelimit-remaining'), '5999');
});

function assertLimited(t: Test, res: Answer, limit: number): void {
  assertError(t, res, 429);
  t.equal(res.body.errors[0].title, 'Too Many Requests');
  const retryAfter = res.headers.get('retry-after');
  t.match(retryAfter, /^\d+$/, 'Retry-After in whole seconds');
  t.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, `Retry-After within the window (${retryAfter})`);
  t.equal(res.headers.get('x-ratelimit-limit'), String(limit));
  t.equal(res.headers.get('x-ratelimit-remaining'), '0');
}

t.test('rateLimit: true enforces rate_limit_per_minute: the 4th request of 3 is a 429', async (t) => {
  const e = await emulator(t, { rateLimit: true, config: { sources: [{ slug: 'acme', rate_limit_per_minute: 3 }] } });
  const remaining = [];
  for (let i = 0; i < 3; i++) {
    const res = await e.api.get('/v1/me');
    t.equal(res.status, 200);
    remaining.push(res.headers.get('x-ratelimit-remaining'));
  }
  t.same(remaining, ['2', '1', '0']);
  assertLimited(t, await e.api.get('/v1/me'), 3);
  assertLimited(t, await e.api.post('/v1/sessions', { amount: 1 }), 3);
  t.equal((await e.api.get('/_payemu/clock')).status, 200, 'the control plane is not limited');
  t.equal((await e.live.get('/v1/me')).status, 200, 'the live window is separate');
  t.equal((await e.globex.get('/v1/me')).status, 200, 'another Source is not limited');
});

t.test('enforce_rate_limit: true in the config enforces it for that Source only', async (t) => {
  const e = await emulator(t, {
    config: {
      sources: [
        { slug: 'acme', enforce_rate_limit: true, rate_limit_per_minute: 3 },
        { slug: 'globex', rate_limit_per_minute: 3 },
      ],
    },
  });
  for (let i = 0; i < 3; i++) t.equal((await e.api.get('/v1/me')).status, 200);
  const limited = await e.api.get('/v1/me');
  assertLimited(t, limited, 3);
  t.match(limited.body.errors[0].detail, /rate limit/i);
  t.equal((await e.api.get('/v1/me')).status, 429, 'still limited within the window');

  // globex reports a limit of 3 but does not enforce it: no surprise 429s.
  for (let i = 0; i < 6; i++) {
    const res = await e.globex.get('/v1/me');
    t.equal(res.status, 200);
    t.equal(res.headers.get('x-ratelimit-limit'), '3');
  }
  t.equal((await e.globex.get('/v1/me')).headers.get('x-ratelimit-remaining'), '0');
});
