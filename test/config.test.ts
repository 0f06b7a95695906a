import fs from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import type { BusEvents } from '../src/bus/bus.js';
import { startEmulator, type Emulator } from '../src/index.js';
import { runPayemu, startPayemu } from './helpers/cli.js';
import { assertError, client } from './helpers/emulator.js';

// DESIGN.md section 2: the default fixtures, the user's config merged onto them, validation at
// start (exit code 2 naming the field) and on every change (watched; the last valid config stays).
// Each test has its own processes, ports and files: they run a few at a time.
t.jobs = 4;
// Many tests spawn the binary: on a loaded machine (the whole suite at once) that is slow.
t.setTimeout(240_000);

const DEFAULT_SOURCES = [
  { slug: 'acme', name: 'Acme Store', test_key: 'sk_test_payemu_acme', live_key: 'sk_live_payemu_acme', webhook_secret: 'whsec_payemu_acme', currency: 'USD' },
  {
    slug: 'globex',
    name: 'Globex',
    test_key: 'sk_test_payemu_globex',
    live_key: 'sk_live_payemu_globex',
    webhook_secret: 'whsec_payemu_globex',
    currency: 'EUR',
  },
];

/** A complete new Source (a new slug needs every field). */
function initech(overrides: Record<string, unknown> = {}) {
  return {
    slug: 'initech',
    name: 'Initech',
    test_key: 'sk_test_initech',
    live_key: 'sk_live_initech',
    webhook_secret: 'whsec_initech',
    currency: 'GBP',
    rate_limit_per_minute: 600,
    enforce_rate_limit: false,
    ip_whitelist: [],
    webhook_url: null,
    tax: { enabled: true, name: 'VAT', rate: 20, inclusive: true },
    products: [{ id: 1, name: 'Stapler', price: 9.99, currency: 'GBP' }],
    ...overrides,
  };
}

async function library(t: Test, options: Parameters<typeof startEmulator>[0] = {}): Promise<Emulator> {
  const e = await startEmulator({ port: 0, inMemory: true, ...options });
  t.teardown(() => e.close());
  return e;
}

/** The next `name` event on the bus that satisfies `match`. Subscribe before making the change. */
function nextEvent<K extends 'config.reloaded' | 'config.rejected'>(
  e: Emulator,
  name: K,
  match: (event: BusEvents[K]) => boolean = () => true,
): Promise<BusEvents[K]> {
  return new Promise((resolve) => {
    const off = e.bus.on(name, (event) => {
      if (!match(event)) return;
      off();
      resolve(event);
    });
  });
}

const me = (url: string, key: string) => client(url, key).get('/v1/me');

t.test('the default config: both Sources and their exact keys (DESIGN.md section 2)', async (t) => {
  const e = await library(t);
  t.same(e.keys, { test: 'sk_test_payemu_acme', live: 'sk_live_payemu_acme' }, 'keys of the first Source');
  t.equal(e.webhookSecret, 'whsec_payemu_acme');
  t.same(
    e.sources,
    DEFAULT_SOURCES.map(({ currency: _currency, ...s }) => s),
  );
  for (const source of DEFAULT_SOURCES) {
    for (const mode of ['test', 'live'] as const) {
      const key = mode === 'test' ? source.test_key : source.live_key;
      const res = await me(e.url, key);
      t.equal(res.status, 200, key);
      t.same(res.body.data, {
        id: source.slug,
        type: 'accounts',
        attributes: {
          name: source.name,
          slug: source.slug,
          mode,
          default_currency: source.currency,
          rate_limit_per_minute: 6000,
          ip_whitelisting_enabled: false,
          webhook_configured: false,
        },
        links: { self: `${e.url}/v1/me` },
      });
    }
  }
  // A key the fixtures do not define, and a webhook secret used as a key, are 401.
  assertError(t, await me(e.url, 'sk_test_payemu_other'), 401);
  assertError(t, await me(e.url, 'whsec_payemu_acme'), 401);
});

t.test('the library takes a config object merged onto the defaults', async (t) => {
  const e = await library(t, { config: { sources: [{ slug: 'globex', currency: 'CHF' }] } });
  t.equal((await me(e.url, 'sk_test_payemu_globex')).body.data.attributes.default_currency, 'CHF');
  t.equal((await me(e.url, 'sk_test_payemu_acme')).body.data.attributes.default_currency, 'USD', 'acme untouched');
  await t.rejects(startEmulator({ config: { sources: [{ slug: 'acme', test_key: 'nope' }] } }), { name: 'ConfigError', message: /sources\.0\.test_key/ });
});

/** Checks the override and the added Source of `overrides()` against a running payemu. */
async function checkOverrides(t: Test, url: string) {
  const acme = await me(url, 'sk_test_payemu_acme');
  t.equal(acme.status, 200, 'the overridden Source keeps its keys');
  t.match(
    acme.body.data.attributes,
    { slug: 'acme', name: 'Acme Store', default_currency: 'EUR', rate_limit_per_minute: 6000 },
    'one field overridden, the others kept',
  );
  const api = client(url, 'sk_test_payemu_acme');
  const created = await api.post('/v1/sessions', { amount: 20 });
  t.equal(created.status, 201);
  t.equal(created.body.data.attributes.currency, 'EUR', "a session's default currency follows the config");
  t.equal((await api.get(`/v1/sessions/${created.body.data.id}`)).body.data.attributes.currency, 'EUR');
  t.equal((await me(url, 'sk_live_payemu_acme')).body.data.attributes.default_currency, 'EUR', 'both modes');

  t.equal((await me(url, 'sk_test_payemu_globex')).body.data.attributes.default_currency, 'EUR', 'globex is still there');
  const added = await me(url, 'sk_test_initech');
  t.equal(added.status, 200, 'the new Source is added');
  t.match(added.body.data.attributes, { name: 'Initech', slug: 'initech', mode: 'test', default_currency: 'GBP', rate_limit_per_minute: 600 });
  t.equal((await me(url, 'sk_live_initech')).body.data.attributes.mode, 'live');
  const session = await client(url, 'sk_test_initech').post('/v1/sessions', { amount: 3 });
  t.equal(session.body.data.attributes.currency, 'GBP');
}

const overrides = () => JSON.stringify({ sources: [{ slug: 'acme', currency: 'EUR' }, initech()] });

t.test('--config FILE overrides a Source by slug and adds a new one', async (t) => {
  const dir = t.testdir({ 'elsewhere.json': overrides(), cwd: {} });
  const { proc, url } = await startPayemu(t, ['--in-memory', '--config', path.join(dir, 'elsewhere.json')], { cwd: path.join(dir, 'cwd') });
  const banner = await proc.waitForLine(/initech/);
  t.match(banner, /sk_test_initech/, 'the banner lists the new Source');
  await checkOverrides(t, url);
  t.same(await proc.stop(), { code: 0, signal: null });
});

t.test('--config takes a path relative to the working directory', async (t) => {
  const cwd = t.testdir({ conf: { 'mine.json': overrides() } });
  const { proc, url } = await startPayemu(t, ['--in-memory', '--config', 'conf/mine.json'], { cwd });
  await checkOverrides(t, url);
  await proc.stop();
});

t.test('payemu.config.json in the working directory is found automatically', async (t) => {
  const cwd = t.testdir({ 'payemu.config.json': overrides() });
  const { proc, url } = await startPayemu(t, ['--in-memory'], { cwd });
  await checkOverrides(t, url);
  await proc.stop();
});

t.test('"defaults": false starts from nothing', async (t) => {
  const cwd = t.testdir({ 'payemu.config.json': JSON.stringify({ defaults: false, sources: [initech()] }) });
  const { proc, url } = await startPayemu(t, ['--in-memory'], { cwd });
  for (const key of ['sk_test_payemu_acme', 'sk_live_payemu_acme', 'sk_test_payemu_globex']) {
    assertError(t, await me(url, key), 401);
  }
  t.equal((await me(url, 'sk_test_initech')).status, 200);
  t.notMatch(proc.stdout, /acme/, 'the banner shows no default Source');
  await proc.stop();
});

// Through the binary: exit code 2 and stderr naming the file and the field.
const START_CASES: [string, string, RegExp[]][] = [
  ['bad JSON', '{"sources": [', [/not valid JSON/]],
  [
    'a test key not starting with sk_test_',
    JSON.stringify({ sources: [{ slug: 'acme', test_key: 'pk_test_acme' }] }),
    [/sources\.0\.test_key \(Source "acme"\).*"sk_test_"/],
  ],
  ['an unknown field', JSON.stringify({ sources: [{ slug: 'acme', webhok_url: 'http://127.0.0.1:1/x' }] }), [/sources\.0\.webhok_url/, /not allowed/]],
  ['a wrong type', JSON.stringify({ sources: [{ slug: 'acme', rate_limit_per_minute: 'fast' }] }), [/sources\.0\.rate_limit_per_minute/, /integer/]],
];

// In process (the same loader): the message names the field.
const LOAD_CASES: [string, unknown, RegExp[]][] = [
  ['a live key in the test key', { sources: [{ slug: 'acme', test_key: 'sk_live_acme' }] }, [/sources\.0\.test_key/]],
  ['a webhook secret without whsec_', { sources: [{ slug: 'acme', webhook_secret: 'secret' }] }, [/sources\.0\.webhook_secret.*"whsec_"/]],
  ['an unknown top-level field', { sourcez: [] }, [/sourcez/, /not allowed/]],
  ['a wrong type of a nested field', { sources: [{ slug: 'globex', tax: { rate: '21%' } }] }, [/sources\.0\.tax\.rate/, /number/]],
  ['a new Source missing fields', { sources: [{ slug: 'initech', name: 'Initech' }] }, [/sources\.2\.\w+ \(Source "initech"\)/, /required/]],
  ['a duplicate key', { sources: [{ slug: 'globex', test_key: 'sk_test_payemu_acme' }] }, [/sources\.1\.test_key/, /sources\.0\.test_key/]],
  ['a bad IP address in the whitelist', { sources: [{ slug: 'acme', ip_whitelist: ['10.0.0.300'] }] }, [/sources\.0\.ip_whitelist\.0/]],
  ['"defaults": false and no Source', { defaults: false }, [/sources/]],
  ['not an object', [], [/object/]],
];

t.test('an invalid config at start: exit code 2 and a message naming the field', async (t) => {
  t.jobs = 4;
  for (const [name, text, patterns] of START_CASES) {
    t.test(name, async (t) => {
      const cwd = t.testdir({ 'bad.json': text });
      const res = await runPayemu(t, ['start', '--port', '0', '--in-memory', '--config', 'bad.json'], { cwd });
      t.equal(res.code, 2, 'exit code 2');
      t.equal(res.stdout, '', 'no readiness line');
      t.match(res.stderr, /^payemu: invalid config /);
      t.match(res.stderr, path.join(cwd, 'bad.json'), 'names the file');
      // The path of the file holds the test's name: look for the patterns after it.
      const message = res.stderr.slice(res.stderr.indexOf('bad.json') + 'bad.json'.length);
      for (const pattern of patterns) t.match(message, pattern);
    });
  }
  t.test('a config file that does not exist', async (t) => {
    const res = await runPayemu(t, ['start', '--port', '0', '--in-memory', '--config', 'missing.json'], { cwd: t.testdir() });
    t.equal(res.code, 2);
    t.match(res.stderr, /missing\.json/);
    t.match(res.stderr, /ENOENT/);
  });
  t.test('payemu.config.json found in the working directory is validated too', async (t) => {
    const cwd = t.testdir({ 'payemu.config.json': JSON.stringify({ sources: [{ slug: 'acme', currency: 'usdollars' }] }) });
    const res = await runPayemu(t, ['start', '--port', '0', '--in-memory'], { cwd });
    t.equal(res.code, 2);
    t.match(res.stderr, /payemu\.config\.json/);
    t.match(res.stderr, /sources\.0\.currency/);
  });
});

t.test('an invalid config file makes startEmulator reject with a ConfigError naming the field', async (t) => {
  const dir = t.testdir(Object.fromEntries(LOAD_CASES.map(([, config], i) => [`case-${i}.json`, JSON.stringify(config)])));
  for (const [i, [name, , patterns]] of LOAD_CASES.entries()) {
    const file = path.join(dir, `case-${i}.json`);
    const error = await startEmulator({ config: file }).then(
      async (e) => void (await e.close()),
      (error: Error) => error,
    );
    t.equal(error?.name, 'ConfigError', name);
    t.match(error?.message, `invalid config ${file}: `, `${name}: names the file`);
    for (const pattern of patterns) t.match(error?.message, pattern, `${name}: ${pattern}`);
  }
});

t.test('IP whitelist', async (t) => {
  await t.test('a request from an address not listed is a 403 in the envelope', async (t) => {
    const e = await library(t, { config: { sources: [{ slug: 'acme', ip_whitelist: ['10.0.0.1'] }] } });
    for (const key of ['sk_test_payemu_acme', 'sk_live_payemu_acme']) {
      const res = await me(e.url, key);
      assertError(t, res, 403, /127\.0\.0\.1/);
      t.equal(res.body.errors[0].title, 'Forbidden');
    }
    const session = await client(e.url, 'sk_test_payemu_acme').post('/v1/sessions', { amount: 1 });
    assertError(t, session, 403);
    t.equal((await me(e.url, 'sk_test_payemu_globex')).status, 200, 'another Source is not affected');
    // A wrong key is still a 401, not a 403: the whitelist is the Source's.
    assertError(t, await me(e.url, 'sk_test_nobody'), 401);
  });
  for (const list of [['127.0.0.1'], ['10.0.0.1', '127.0.0.0/8']]) {
    await t.test(`${JSON.stringify(list)} admits 127.0.0.1`, async (t) => {
      const e = await library(t, { config: { sources: [{ slug: 'acme', ip_whitelist: list }] } });
      const res = await me(e.url, 'sk_test_payemu_acme');
      t.equal(res.status, 200);
      t.equal(res.body.data.attributes.ip_whitelisting_enabled, true);
      t.equal((await me(e.url, 'sk_test_payemu_globex')).body.data.attributes.ip_whitelisting_enabled, false);
    });
  }
});

/** Writes the file the way editors save: a temporary file renamed over it. */
function saveAtomically(file: string, text: string): void {
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

t.test('watch: a valid edit applies, an invalid one is rejected and the last valid config stays', async (t) => {
  const dir = t.testdir({ 'payemu.config.json': JSON.stringify({ sources: [{ slug: 'acme', test_key: 'sk_test_first' }] }) });
  const file = path.join(dir, 'payemu.config.json');
  const e = await library(t, { config: file });
  t.equal((await me(e.url, 'sk_test_first')).status, 200);
  assertError(t, await me(e.url, 'sk_test_payemu_acme'), 401, /Bearer/);

  await t.test('a new test key takes effect; the old one is a 401', async (t) => {
    const reloaded = nextEvent(e, 'config.reloaded');
    fs.writeFileSync(file, JSON.stringify({ sources: [{ slug: 'acme', test_key: 'sk_test_second' }] }));
    t.same(await reloaded, { path: file });
    t.equal((await me(e.url, 'sk_test_second')).status, 200, 'new key works');
    assertError(t, await me(e.url, 'sk_test_first'), 401);
    t.equal((await me(e.url, 'sk_live_payemu_acme')).status, 200, 'the live key is untouched');
  });

  await t.test('an invalid edit is rejected with a message naming the field', async (t) => {
    const rejected = nextEvent(e, 'config.rejected');
    fs.writeFileSync(file, JSON.stringify({ sources: [{ slug: 'acme', test_key: 'sk_live_oops' }] }));
    const event = await rejected;
    t.equal(event.path, file);
    t.match(event.error, /sources\.0\.test_key/);
    t.equal((await me(e.url, 'sk_test_second')).status, 200, 'the last valid config stays in force');
    assertError(t, await me(e.url, 'sk_live_oops'), 401);
  });

  await t.test('bad JSON and an unknown field are rejected too', async (t) => {
    let rejected = nextEvent(e, 'config.rejected');
    fs.writeFileSync(file, '{"sources": [{"slug": "acme",');
    t.match((await rejected).error, /not valid JSON/);
    rejected = nextEvent(e, 'config.rejected');
    fs.writeFileSync(file, JSON.stringify({ sources: [{ slug: 'acme', test_key: 'sk_test_third', colour: 'red' }] }));
    t.match((await rejected).error, /sources\.0\.colour/);
    t.equal((await me(e.url, 'sk_test_second')).status, 200);
    assertError(t, await me(e.url, 'sk_test_third'), 401, undefined);
  });

  await t.test('an edit saved atomically (rename over the file) applies', async (t) => {
    const reloaded = nextEvent(e, 'config.reloaded');
    saveAtomically(file, JSON.stringify({ sources: [{ slug: 'acme', test_key: 'sk_test_fourth' }] }));
    await reloaded;
    t.equal((await me(e.url, 'sk_test_fourth')).status, 200);
    assertError(t, await me(e.url, 'sk_test_second'), 401);
    // And the watch goes on after the rename.
    const again = nextEvent(e, 'config.reloaded');
    fs.writeFileSync(file, JSON.stringify({ sources: [{ slug: 'acme', test_key: 'sk_test_fifth' }] }));
    await again;
    t.equal((await me(e.url, 'sk_test_fifth')).status, 200);
  });

  await t.test('IP whitelist, rate limit and currency edits apply', async (t) => {
    let reloaded = nextEvent(e, 'config.reloaded');
    fs.writeFileSync(file, JSON.stringify({ sources: [{ slug: 'acme', test_key: 'sk_test_fifth', ip_whitelist: ['10.0.0.1'] }] }));
    await reloaded;
    assertError(t, await me(e.url, 'sk_test_fifth'), 403);

    reloaded = nextEvent(e, 'config.reloaded');
    fs.writeFileSync(
      file,
      JSON.stringify({
        sources: [
          { slug: 'acme', test_key: 'sk_test_fifth', ip_whitelist: ['127.0.0.1'] },
          { slug: 'globex', currency: 'JPY', enforce_rate_limit: true, rate_limit_per_minute: 2 },
        ],
      }),
    );
    await reloaded;
    t.equal((await me(e.url, 'sk_test_fifth')).status, 200, 'whitelisted now');
    const globex = await me(e.url, 'sk_test_payemu_globex');
    t.match(globex.body.data.attributes, { default_currency: 'JPY', rate_limit_per_minute: 2 });
    t.equal(globex.headers.get('x-ratelimit-limit'), '2');
    t.equal((await me(e.url, 'sk_test_payemu_globex')).status, 200);
    assertError(t, await me(e.url, 'sk_test_payemu_globex'), 429);
  });
});

t.test('watch through the binary: an invalid edit is reported in the log, a valid one too', async (t) => {
  const cwd = t.testdir({ 'payemu.config.json': JSON.stringify({ sources: [{ slug: 'acme', test_key: 'sk_test_first' }] }) });
  const file = path.join(cwd, 'payemu.config.json');
  const { proc, url } = await startPayemu(t, ['--in-memory'], { cwd });
  await proc.waitForLine(/globex/); // the end of the banner
  t.equal((await me(url, 'sk_test_first')).status, 200);

  fs.writeFileSync(file, JSON.stringify({ sources: [{ slug: 'acme', test_key: 'not_a_key' }] }));
  const rejected = await proc.waitForLine(/config edit rejected/);
  t.match(rejected, /the last valid config stays/);
  t.match(rejected, /sources\.0\.test_key/);
  t.equal((await me(url, 'sk_test_first')).status, 200, 'still in force');

  fs.writeFileSync(file, JSON.stringify({ sources: [{ slug: 'acme', test_key: 'sk_test_second' }] }));
  t.match(await proc.waitForLine(/config reloaded/), file);
  t.equal((await me(url, 'sk_test_second')).status, 200);
  t.equal(proc.stderr, '');
  t.same(await proc.stop(), { code: 0, signal: null });
});

t.test('watch through the binary with --json: rejected edits are JSON lines', async (t) => {
  const cwd = t.testdir({ 'payemu.config.json': '{}' });
  const file = path.join(cwd, 'payemu.config.json');
  const { proc } = await startPayemu(t, ['--in-memory', '--json'], { cwd });
  fs.writeFileSync(file, JSON.stringify({ sources: [{ slug: 'acme', rate_limit_per_minute: 0 }] }));
  const line = await proc.waitForJson((l) => l.type === 'config.rejected');
  t.equal(line.path, file);
  t.match(line.error, /sources\.0\.rate_limit_per_minute/);
  await proc.stop();
});
