import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { ConfigError, loadConfig, MAX_CONFIG_BYTES } from '../src/config/load.js';
import { userConfigSchema } from '../src/config/schema.js';
import { startEmulator } from '../src/index.js';
import { client } from './helpers/emulator.js';
import { runPayemu, startPayemu, spawnPayemu } from './helpers/cli.js';

// What payemu reads from a config file is checked before it is used (docs/reliability.md): only
// a regular file of at most 1 MiB is read (a FIFO or a device is refused at once, never waited
// on), and every number in it is finite and within its field's range.
t.jobs = 3;
t.setTimeout(240_000);

const MiB = 1024 * 1024;
const fifoSupported = process.platform !== 'win32';

function refusal(file: string): ConfigError {
  try {
    loadConfig(file);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`${file} was accepted`);
}

/** A config whose every numeric field is present (a value within range): the template of the loop. */
const TEMPLATE = {
  sources: [
    {
      slug: 'acme',
      rate_limit_per_minute: 600,
      tax: { rate: 20 },
      products: [{ id: 1, name: 'Stapler', price: 9.99, currency: 'USD' }],
      faults: [{ path: '/v1/payments', status: 503, latency_ms: 10, probability: 1, times: 1, seed: 7 }],
    },
  ],
};

interface NumericField {
  /** In the document: `sources.0.tax.rate`. */
  path: string[];
  integer: boolean;
  minimum: number | undefined;
  exclusiveMinimum: number | undefined;
  maximum: number | undefined;
}

/** Every field of the user's schema that takes a number, walked from the schema itself. */
function numericFields(schema: any, at: string[] = []): NumericField[] {
  const types: string[] = [schema.type ?? []].flat();
  const found: NumericField[] = [];
  if (types.includes('number') || types.includes('integer')) {
    found.push({
      path: at,
      integer: !types.includes('number'),
      minimum: schema.minimum,
      exclusiveMinimum: schema.exclusiveMinimum,
      maximum: schema.maximum,
    });
  }
  for (const [key, sub] of Object.entries<any>(schema.properties ?? {})) found.push(...numericFields(sub, [...at, key]));
  if (schema.items) found.push(...numericFields(schema.items, [...at, '0']));
  return found;
}

/** The template with `value` (JSON text) at `at`. */
function withValue(at: string[], value: string): string {
  const doc = structuredClone(TEMPLATE) as any;
  let node = doc;
  for (const key of at.slice(0, -1)) node = node[key];
  node[at.at(-1)!] = '@@VALUE@@';
  return JSON.stringify(doc).replace('"@@VALUE@@"', value);
}

t.test('every number in the config schema has a range, and a value outside it or not finite is refused naming the field', async (t) => {
  const fields = numericFields(userConfigSchema);
  const names = fields.map((f) => f.path.join('.'));
  // The walk finds the fields it must (a schema change that hides them fails here).
  for (const name of [
    'sources.0.rate_limit_per_minute',
    'sources.0.tax.rate',
    'sources.0.products.0.id',
    'sources.0.products.0.price',
    'sources.0.faults.0.times',
  ]) {
    t.ok(names.includes(name), `${name} is walked`);
  }
  const dir = t.testdir();
  const template = path.join(dir, 'template.json');
  fs.writeFileSync(template, JSON.stringify(TEMPLATE));
  t.ok(loadConfig(template), 'the template itself is valid');
  for (const field of fields) {
    const name = field.path.join('.');
    t.ok(Number.isFinite(field.maximum), `${name} has a maximum`);
    t.ok(Number.isFinite(field.minimum ?? field.exclusiveMinimum), `${name} has a minimum`);
    const bad = ['1e309', '-1e309', String(field.maximum! + 1), String((field.minimum ?? field.exclusiveMinimum!) - 1)];
    if (field.exclusiveMinimum !== undefined) bad.push(String(field.exclusiveMinimum));
    if (field.integer) bad.push('1.5');
    for (const value of bad) {
      const file = path.join(dir, `${name}-${value}.json`);
      fs.writeFileSync(file, withValue(field.path, value));
      const error = refusal(file);
      t.match(error.message, `invalid config ${file}: ${name}`, `${name}: ${value} is refused naming the field`);
    }
    const file = path.join(dir, `${name}-max.json`);
    fs.writeFileSync(file, withValue(field.path, String(field.maximum)));
    t.doesNotThrow(() => loadConfig(file), `${name}: its maximum ${field.maximum} is accepted`);
  }
});

t.test('1e309 anywhere (a fault body, which has no schema for its numbers) is refused as not finite', async (t) => {
  const dir = t.testdir({
    'rate.json': '{"sources": [{"slug": "acme", "rate_limit_per_minute": 1e309}]}',
    'body.json': '{"sources": [{"slug": "acme", "faults": [{"path": "/v1/me", "status": 500, "body": {"n": [1, 1e309]}}]}]}',
  });
  t.match(refusal(path.join(dir, 'rate.json')).message, /sources\.0\.rate_limit_per_minute \(Source "acme"\): .*finite/);
  t.match(refusal(path.join(dir, 'body.json')).message, /sources\.0\.faults\.0\.body\.n\.1 \(Source "acme"\): .*finite/);
});

t.test('a config nested deeper than 100 levels (a fault body 5,000 deep) is refused; one within it is read', async (t) => {
  const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
  const fault = (body: string) => `{"sources": [{"slug": "acme", "faults": [{"path": "/v1/me", "status": 500, "body": ${body}}]}]}`;
  const dir = t.testdir({ 'deep.json': fault(deep(5000)), 'fine.json': fault(deep(50)) });
  // Answering such a fault would overflow the stack: every request it matched answered 500.
  t.match(refusal(path.join(dir, 'deep.json')).message, /sources\.0\.faults\.0\.body(\.a)+ \(Source "acme"\): .*nested too deeply/);
  t.doesNotThrow(() => loadConfig(path.join(dir, 'fine.json')));
});

t.test('a config object given to the library: Infinity and NaN are refused too', async (t) => {
  for (const value of [Number.POSITIVE_INFINITY, Number.NaN]) {
    const error = await startEmulator({ port: 0, inMemory: true, config: { sources: [{ slug: 'acme', tax: { rate: value } }] } }).then(
      async (e) => void (await e.close()),
      (error: Error) => error,
    );
    t.equal(error?.name, 'ConfigError', String(value));
    t.match(error?.message, /sources\.0\.tax\.rate \(Source "acme"\): .*finite/);
  }
});

t.test('a file over 1 MiB is refused, one of exactly 1 MiB is read', async (t) => {
  const big = `{"sources": [{"slug": "acme"}]}${' '.repeat(1.5 * MiB)}`;
  const fits = `{"sources": [{"slug": "acme"}]}`.padEnd(MAX_CONFIG_BYTES, ' ');
  const dir = t.testdir({ 'big.json': big, 'fits.json': fits });
  const error = refusal(path.join(dir, 'big.json'));
  t.match(error.message, `cannot read config ${path.join(dir, 'big.json')}: `);
  t.match(error.message, /over 1048576 bytes \(1 MiB\)/);
  t.equal(loadConfig(path.join(dir, 'fits.json')).sources[0]!.slug, 'acme');
});

t.test('a directory, a FIFO and a link to /dev/zero are refused at once, naming what they are', { skip: !fifoSupported && 'no FIFOs here' }, async (t) => {
  const dir = t.testdir({ folder: {} });
  execFileSync('mkfifo', [path.join(dir, 'fifo.json')]);
  fs.symlinkSync('/dev/zero', path.join(dir, 'zero.json'));
  t.match(refusal(path.join(dir, 'fifo.json')).message, /fifo\.json: not a regular file \(a FIFO\)/);
  t.match(refusal(path.join(dir, 'zero.json')).message, /zero\.json: not a regular file \(a character device\)/);
  t.match(refusal(path.join(dir, 'folder')).message, /folder: not a regular file \(a directory\)|folder: EISDIR/);
});

/** Starts the binary with `config` and expects exit code 2 and a message naming the file and `cause`. */
async function refusedAtStart(t: Test, file: string, cause: RegExp) {
  const proc = spawnPayemu(t, ['start', '--port', '0', '--in-memory', '--config', file]);
  // Before the fix the process hung on the open, SIGTERM ignored: the test's own timer ends it.
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), 30_000);
  const exit = await proc.waitForExit();
  clearTimeout(timer);
  t.equal(exit.code, 2, 'exit code 2');
  t.equal(proc.stdout, '', 'no readiness line');
  t.match(proc.stderr, `payemu: cannot read config ${file}: `, 'names the file');
  t.match(proc.stderr, cause);
}

t.test('at start: a FIFO, a link to /dev/zero or a 1.5 MiB file is exit 2 naming the file', { skip: !fifoSupported && 'no FIFOs here' }, async (t) => {
  const dir = t.testdir({ 'big.json': `{}${' '.repeat(1.5 * MiB)}` });
  execFileSync('mkfifo', [path.join(dir, 'fifo.json')]);
  fs.symlinkSync('/dev/zero', path.join(dir, 'zero.json'));
  await t.test('a FIFO', (t) => refusedAtStart(t, path.join(dir, 'fifo.json'), /not a regular file \(a FIFO\)/));
  await t.test('a link to /dev/zero', (t) => refusedAtStart(t, path.join(dir, 'zero.json'), /not a regular file \(a character device\)/));
  await t.test('a 1.5 MiB file', (t) => refusedAtStart(t, path.join(dir, 'big.json'), /over 1048576 bytes/));
  await t.test('rate_limit_per_minute: 1e309', async (t) => {
    fs.writeFileSync(path.join(dir, 'inf.json'), '{"sources": [{"slug": "acme", "rate_limit_per_minute": 1e309}]}');
    const res = await runPayemu(t, ['start', '--port', '0', '--in-memory', '--config', path.join(dir, 'inf.json')]);
    t.equal(res.code, 2);
    t.match(res.stderr, /sources\.0\.rate_limit_per_minute \(Source "acme"\): .*finite/);
  });
});

t.test(
  'on reload: a FIFO or /dev/zero swapped in is refused, health keeps answering and the last valid config stays',
  { skip: !fifoSupported && 'no FIFOs here' },
  async (t) => {
    const cwd = t.testdir({ 'payemu.config.json': JSON.stringify({ sources: [{ slug: 'acme', test_key: 'sk_test_first' }] }) });
    const file = path.join(cwd, 'payemu.config.json');
    const { proc, url } = await startPayemu(t, ['--in-memory'], { cwd });
    await proc.waitForLine(/globex/); // the end of the banner
    const health = async () => (await fetch(`${url}/_payemu/health`, { signal: AbortSignal.timeout(5000) })).status;

    for (const [what, make, cause] of [
      ['a FIFO', (to: string) => execFileSync('mkfifo', [to]), /not a regular file \(a FIFO\)/],
      ['a 1.5 MiB file', (to: string) => fs.writeFileSync(to, `{}${' '.repeat(1.5 * MiB)}`), /over 1048576 bytes/],
      // Last: once a link is swapped in, the watch follows it to its target (chokidar), so a
      // file renamed over the link afterwards is not seen.
      ['a link to /dev/zero', (to: string) => fs.symlinkSync('/dev/zero', to), /not a regular file \(a character device\)/],
    ] as const) {
      await t.test(what, async (t) => {
        const swap = `${file}.swap`;
        make(swap);
        fs.renameSync(swap, file);
        const rejected = await proc.waitForLine(/config edit rejected/);
        t.match(rejected, file);
        t.match(rejected, cause);
        t.equal(await health(), 200, 'health answers');
        t.equal((await client(url, 'sk_test_first').get('/v1/me')).status, 200, 'the last valid config stays');
        if (what === 'a link to /dev/zero') return;
        // A valid file again, renamed over the FIFO (replaced, not written through).
        fs.writeFileSync(swap, JSON.stringify({ sources: [{ slug: 'acme', test_key: 'sk_test_first' }] }));
        fs.renameSync(swap, file);
        await proc.waitForLine(/config reloaded/);
      });
    }
    t.equal(proc.stderr, '');
    t.same(await proc.stop(), { code: 0, signal: null }, 'SIGTERM stops it');
  },
);
