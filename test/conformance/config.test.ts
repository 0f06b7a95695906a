import t, { type Test } from 'tap';
import { startEmulator } from '../../src/index.js';
import { runPayemu, startPayemu } from '../helpers/cli.js';
import { assertError, client } from '../helpers/emulator.js';

// DESIGN.md 2 (default fixtures): a Source's fields and their defaults, the user's config merged
// onto the defaults, validation naming the field (exit code 2). Each test is titled with the
// sentence it checks.
t.jobs = 2;
t.setTimeout(240_000);

/** A new Source that gives only what has no default. */
const bare = { slug: 'initech', test_key: 'sk_test_initech', live_key: 'sk_live_initech', webhook_secret: 'whsec_initech' };

/** What a bare new Source answers, in both modes. */
async function checkDefaults(t: Test, url: string) {
  for (const key of ['sk_test_initech', 'sk_live_initech']) {
    const api = client(url, key);
    const me = await api.get('/v1/me');
    t.equal(me.status, 200, `${key} authenticates`);
    t.same(me.body.data.attributes, {
      name: 'initech',
      slug: 'initech',
      mode: key.startsWith('sk_test_') ? 'test' : 'live',
      default_currency: 'USD',
      rate_limit_per_minute: 6000,
      ip_whitelisting_enabled: false,
      webhook_configured: false,
    });
    t.equal(me.headers.get('x-ratelimit-limit'), '6000', 'the rate limit is reported in X-RateLimit-*');
  }
  const api = client(url, 'sk_test_initech');
  t.same((await api.get('/v1/tax/settings')).body.data.attributes, { enabled: false, name: 'Tax', rate: 0, inclusive: false }, 'tax turned off');
  assertError(t, await api.post('/v1/payment-links', { title: 'Stapler', products: [{ id: 1 }] }), 422);
  const session = await api.post('/v1/sessions', { amount: 3 });
  t.equal(session.status, 201);
  t.equal(session.body.data.attributes.currency, 'USD', 'sessions default to the Source currency');
}

t.test('fixtures/payemu.config.json defines one merchant with two Sources: acme (USD) and globex (EUR), with their keys and secrets', async (t) => {
  const e = await startEmulator({ port: 0, inMemory: true });
  t.teardown(() => e.close());
  const fixtures = [
    ['acme', 'Acme Store', 'USD'],
    ['globex', 'Globex', 'EUR'],
  ] as const;
  for (const [slug, name, currency] of fixtures) {
    for (const mode of ['test', 'live'] as const) {
      const me = await client(e.url, `sk_${mode}_payemu_${slug}`).get('/v1/me');
      t.same(me.body.data.attributes, {
        name,
        slug,
        mode,
        default_currency: currency,
        rate_limit_per_minute: 6000,
        ip_whitelisting_enabled: false,
        webhook_configured: false,
      });
    }
  }
  t.equal(e.webhookSecret, 'whsec_payemu_acme');
  t.same(
    e.sources.map((s) => s.webhook_secret),
    ['whsec_payemu_acme', 'whsec_payemu_globex'],
  );
});

t.test('Sources are matched by slug (its fields override; a new slug adds a Source)', async (t) => {
  const e = await startEmulator({ port: 0, inMemory: true, config: { sources: [{ slug: 'globex', currency: 'CHF' }, bare] } });
  t.teardown(() => e.close());
  t.match(
    (await client(e.url, 'sk_test_payemu_globex').get('/v1/me')).body.data.attributes,
    { name: 'Globex', default_currency: 'CHF' },
    'one field overridden, the rest kept',
  );
  t.same((await client(e.url, 'sk_test_payemu_globex').get('/v1/tax/settings')).body.data.attributes, {
    enabled: true,
    name: 'VAT',
    rate: 21,
    inclusive: true,
  });
  t.equal((await client(e.url, 'sk_test_payemu_acme').get('/v1/me')).status, 200);
  t.equal((await client(e.url, 'sk_test_initech').get('/v1/me')).status, 200);
});

t.test(
  'Each Source also has: rate_limit_per_minute (default 6000), ip_whitelist (empty = off), webhook_url (null unless set), tax settings and a product catalogue',
  async (t) => {
    await t.test('a new Source given as the library config option', async (t) => {
      const e = await startEmulator({ port: 0, inMemory: true, config: { sources: [bare] } });
      t.teardown(() => e.close());
      await checkDefaults(t, e.url);
      t.equal((await client(e.url, 'sk_test_payemu_acme').get('/v1/me')).status, 200, 'the default Sources stay');
    });
    await t.test('a new Source in payemu start --config FILE', async (t) => {
      const cwd = t.testdir({ 'payemu.json': JSON.stringify({ sources: [bare] }) });
      const { proc, url } = await startPayemu(t, ['--in-memory', '--config', 'payemu.json'], { cwd });
      await checkDefaults(t, url);
      t.same(await proc.stop(), { code: 0, signal: null });
    });
    await t.test('a new Source with "defaults": false, partly given: the rest defaults, tax merges one level down', async (t) => {
      const config = { defaults: false, sources: [{ ...bare, name: 'Initech', currency: 'GBP', enforce_rate_limit: true, tax: { enabled: true, rate: 20 } }] };
      const e = await startEmulator({ port: 0, inMemory: true, config });
      t.teardown(() => e.close());
      const api = client(e.url, 'sk_test_initech');
      t.match((await api.get('/v1/me')).body.data.attributes, { name: 'Initech', default_currency: 'GBP', rate_limit_per_minute: 6000 });
      t.same((await api.get('/v1/tax/settings')).body.data.attributes, { enabled: true, name: 'Tax', rate: 20, inclusive: false });
      assertError(t, await client(e.url, 'sk_test_payemu_acme').get('/v1/me'), 401);
    });
  },
);

t.test('a clear error naming the field, exit code 2: what has no default (slug, keys, webhook secret) must be given', async (t) => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['no test_key', { ...bare, test_key: undefined }, /sources\.2\.test_key \(Source "initech"\): the test_key field is required for a new Source/],
    [
      'no keys at all',
      { slug: 'initech' },
      /sources\.2\.test_key \(Source "initech"\): the test_key, live_key and webhook_secret fields are required for a new Source/,
    ],
    ['no webhook_secret', { ...bare, webhook_secret: undefined }, /sources\.2\.webhook_secret \(Source "initech"\)/],
    ['no slug', { test_key: 'sk_test_x', live_key: 'sk_live_x', webhook_secret: 'whsec_x' }, /sources\.0\.slug.*required/],
  ];
  for (const [name, source, pattern] of cases) {
    await t.test(`${name}: startEmulator rejects with a ConfigError`, async (t) => {
      await t.rejects(startEmulator({ port: 0, inMemory: true, config: { sources: [JSON.parse(JSON.stringify(source))] } }), {
        name: 'ConfigError',
        message: pattern,
      });
    });
  }
  t.jobs = 2;
  for (const [name, source, pattern] of cases) {
    t.test(`${name}: payemu start --config exits 2`, async (t) => {
      const cwd = t.testdir({ 'bad.json': JSON.stringify({ sources: [source] }) });
      const res = await runPayemu(t, ['start', '--port', '0', '--in-memory', '--config', 'bad.json'], { cwd });
      t.equal(res.code, 2, 'exit code 2');
      t.equal(res.stdout, '', 'no readiness line');
      t.match(res.stderr, /^payemu: invalid config .*bad\.json: /);
      t.match(res.stderr, pattern);
    });
  }
});
