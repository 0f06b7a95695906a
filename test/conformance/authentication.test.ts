import t from 'tap';
import { assertError, client, emulator, type Answer } from '../helpers/emulator.js';

// The API's Authentication section, its Account resource and `GET /v1/me`, and its Versioning
// section. Each test is titled with the sentence it checks. One emulator serves the file.

const e = await emulator(t);

/** A request with exactly these headers (no key added). */
const raw = (method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> =>
  client(e.url, undefined).request(method, path, body, headers);

t.test('Every request carries the secret key, either as Authorization: Bearer <API_KEY> or in the header X-API-Key', async (t) => {
  const ways: Record<string, string>[] = [{ Authorization: 'Bearer sk_test_payemu_acme' }, { 'X-API-Key': 'sk_test_payemu_acme' }];
  for (const headers of ways) {
    const me = await raw('GET', '/v1/me', headers);
    t.equal(me.status, 200, Object.keys(headers)[0]!);
    t.match(me.body.data.attributes, { slug: 'acme', mode: 'test' });
    const created = await raw('POST', '/v1/sessions', { ...headers, 'Content-Type': 'application/json' }, '{"amount": 1}');
    t.equal(created.status, 201, `${Object.keys(headers)[0]}: a POST too`);
  }
});

t.test('Secret keys start with sk_live_ (production) or sk_test_ (sandbox)', async (t) => {
  t.equal((await e.api.get('/v1/me')).body.data.attributes.mode, 'test', 'sk_test_: test mode');
  t.equal((await e.live.get('/v1/me')).body.data.attributes.mode, 'live', 'sk_live_: live mode');
});

t.test('A missing or invalid key yields 401 Unauthorized; the message asks for a secret key as a Bearer token', async (t) => {
  for (const [what, headers] of [
    ['no key', {}],
    ['an unknown key', { Authorization: 'Bearer sk_test_nobody' }],
    ['an unknown X-API-Key', { 'X-API-Key': 'sk_live_nobody' }],
    ['the webhook secret', { Authorization: 'Bearer whsec_payemu_acme' }],
  ] as const) {
    for (const [method, path] of [
      ['GET', '/v1/me'],
      ['GET', '/v1/payments'],
      ['POST', '/v1/sessions'],
      ['GET', '/v1/recurring-payments/x'],
    ] as const) {
      const res = await raw(method, path, { ...headers, 'Content-Type': 'application/json' }, method === 'POST' ? '{"amount": 1}' : undefined);
      assertError(t, res, 401, /Bearer/);
      t.equal(res.body.errors[0].title, 'Unauthorized', `${what}: ${method} ${path}`);
      t.match(res.body.errors[0].detail, /secret key/i);
    }
  }
});

t.test('Webhook authenticity: each Source has its own signing secret starting with whsec_', async (t) => {
  t.same(e.webhookSecret, 'whsec_payemu_acme');
  t.same(e.keys, { test: 'sk_test_payemu_acme', live: 'sk_live_payemu_acme' });
});

t.test(
  'GET /v1/me returns the Account resource for the key: name, slug, mode, default_currency, rate_limit_per_minute, ip_whitelisting_enabled, webhook_configured; links.self',
  async (t) => {
    const me = await e.globex.get('/v1/me');
    t.equal(me.status, 200);
    t.equal(me.body.data.type, 'accounts');
    t.type(me.body.data.id, 'string');
    t.same(me.body.data.attributes, {
      name: 'Globex',
      slug: 'globex',
      mode: 'test',
      default_currency: 'EUR',
      rate_limit_per_minute: 6000,
      ip_whitelisting_enabled: false,
      webhook_configured: false,
    });
    t.equal(me.body.data.links.self, `${e.url}/v1/me`);
  },
);

t.test('GET /v1/me: errors 401', async (t) => {
  assertError(t, await e.anon.get('/v1/me'), 401);
});

t.test('The version is carried in the path prefix /v1. Every endpoint begins with it', async (t) => {
  assertError(t, await e.api.get('/v2/me'), 404);
  assertError(t, await e.api.get('/me'), 404);
  assertError(t, await e.api.get('/payments'), 404);
  t.equal((await e.api.get('/v1/me')).status, 200);
});
