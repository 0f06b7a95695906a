import fs from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import t, { type Test } from 'tap';
import { paidSession, runPayemu, startPayemu } from './helpers/cli.js';
import { client } from './helpers/emulator.js';

// The real binary (bin/payemu.js running dist/), spawned on port 0 in temporary directories:
// its help, version, readiness line, code cache, --json output and usage errors. What start's
// options do (port, host, data directory, signals, clock, rate limit): cli-start-options.test.ts.
// Each test has its own processes, ports and directories: they run a few at a time.
t.jobs = 4;
// Every test spawns the binary: on a loaded machine (the whole suite at once) that is slow.
t.setTimeout(240_000);

const TEST_KEY = 'sk_test_payemu_acme';
const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

t.test('--help and start --help list the commands and flags', async (t) => {
  const top = await runPayemu(t, ['--help']);
  t.equal(top.code, 0);
  t.match(top.stdout, /Usage: payemu/);
  t.match(top.stdout, /^\s+start\b/m, 'lists the start command');
  t.match(top.stdout, /--version/);

  const start = await runPayemu(t, ['start', '--help']);
  t.equal(start.code, 0);
  // DESIGN.md section 8's flags.
  const flags = ['--port', '--host', '--data', '--in-memory', '--config', '--webhook-url', '--webhook-backoff', '--webhook-timeout'];
  flags.push('--rate-limit', '--clock-start', '--freeze-clock', '--no-ui', '--json');
  for (const flag of flags) {
    t.match(start.stdout, new RegExp(`${flag}\\b`), `start --help lists ${flag}`);
  }
  t.match(start.stdout, /0 picks a free port/);
  t.equal(start.stderr, '');
});

t.test('--version prints the package version', async (t) => {
  for (const flag of ['--version', '-v']) {
    const res = await runPayemu(t, [flag]);
    t.equal(res.code, 0, flag);
    t.equal(res.stdout.trim(), pkg.version, flag);
  }
});

t.test('readiness: the first stdout line is the URL, printed once requests are served', async (t) => {
  const cwd = t.testdir();
  const { proc, url, port, first } = await startPayemu(t, ['--port', '0', '--in-memory'], { cwd });
  t.equal(first, `payemu listening on http://127.0.0.1:${port}`, 'exact readiness line');
  t.not(port, 0, '--port 0 resolved to a real port');
  // Right after the line, with no wait: requests are served.
  const [health, me] = await Promise.all([client(url, undefined).get('/_payemu/health'), client(url, TEST_KEY).get('/v1/me')]);
  t.equal(health.status, 200);
  t.same(health.body, { status: 'ok' });
  t.equal(me.status, 200);
  // The banner prints keys and secrets (DESIGN.md section 8), after the readiness line.
  await proc.waitForLine(/whsec_payemu_globex/);
  t.match(proc.stdout, `\n  dashboard http://127.0.0.1:${port}/_payemu/dashboard\n`, 'the banner shows the dashboard URL');
  for (const secret of ['sk_test_payemu_acme', 'sk_live_payemu_acme', 'whsec_payemu_acme', 'sk_test_payemu_globex', 'sk_live_payemu_globex']) {
    t.match(proc.stdout, secret);
  }
  const request = await proc.waitForLine(/GET \/v1\/me/);
  t.match(request, /200 GET \/v1\/me/, 'a request is logged as a plain line');
  t.same(await proc.stop('SIGTERM'), { code: 0, signal: null });
});

const nodeCompileCache = 'flushCompileCache' in module; // Node 22.10+
t.test('a start leaves its compiled code for the next, even when killed with kill -9; a damaged cache is written again', async (t) => {
  const root = t.testdir({ cache: {}, cwd: {} });
  const cache = path.join(root, 'cache');
  const env = { NODE_COMPILE_CACHE: cache };
  const startAndKill = async () => {
    const { proc, url } = await startPayemu(t, ['--in-memory'], { cwd: path.join(root, 'cwd'), env });
    // Answered in a later turn than the readiness line's, so after the cache was written.
    t.equal((await client(url, undefined).get('/_payemu/health')).status, 200);
    t.same(await proc.stop('SIGKILL'), { code: null, signal: 'SIGKILL' });
  };
  await startAndKill();
  const own = path.join(cache, 'payemu');
  const files = fs.readdirSync(own);
  t.equal(files.length, 1, "the CLI script's code cache");
  t.match(files[0], /^v\d+\.\d+\.\d+-\w+-\d+-[0-9a-f]{8}\.bin$/);
  const file = path.join(own, files[0]!);
  if (nodeCompileCache) {
    const node = fs.readdirSync(cache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && !e.parentPath.startsWith(own));
    t.ok(node.length >= 1, `Node's compile cache holds the ES modules loaded (${node.length} files)`);
  }

  const damaged = fs.readFileSync(file);
  damaged[damaged.length >> 1]! ^= 0xff;
  fs.writeFileSync(file, damaged);
  await startAndKill(); // V8 would crash on it: payemu checks it first
  t.notOk(fs.readFileSync(file).equals(damaged), 'written again'); // (t.notSame would diff 500 KB)

  const before = fs.statSync(file).mtimeMs;
  await startAndKill();
  t.equal(fs.statSync(file).mtimeMs, before, 'then used as it is, not written again');
});

t.test('payemu exec leaves its compiled code for the next start too', async (t) => {
  const root = t.testdir({ cache: {}, cwd: {} });
  const cache = path.join(root, 'cache');
  const run = await runPayemu(t, ['exec', '--', process.execPath, '-e', '0'], { cwd: path.join(root, 'cwd'), env: { NODE_COMPILE_CACHE: cache } });
  t.equal(run.code, 0, run.stderr);
  t.match(fs.readdirSync(path.join(cache, 'payemu')), [/^v\d+\.\d+\.\d+-\w+-\d+-[0-9a-f]{8}\.bin$/]);
});

t.test('--json: the first line is {"type":"listening","url":...} and every later line is JSON', async (t) => {
  const cwd = t.testdir();
  const { proc, url, port, first } = await startPayemu(t, ['--json', '--in-memory'], { cwd });
  const listening = JSON.parse(first);
  t.equal(listening.type, 'listening');
  t.equal(listening.url, `http://127.0.0.1:${port}`);
  t.equal(listening.dashboard, `http://127.0.0.1:${port}/_payemu/dashboard`);
  t.equal(url, listening.url);

  const me = await client(url, TEST_KEY).get('/v1/me');
  t.equal(me.status, 200);
  const request = await proc.waitForJson((l) => l.type === 'request' && l.path === '/v1/me');
  t.match(request, { type: 'request', method: 'GET', path: '/v1/me', status: 200, source: 'acme', mode: 'test' });
  t.type(request.ms, 'number');

  await paidSession(url, 'json_order_1');
  const domain = await proc.waitForJson((l) => l.type === 'domain');
  t.match(domain, { type: 'domain', name: 'payment.completed', source: 'acme', mode: 'test', data: { reference: 'json_order_1' } });
  t.match(domain.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/, 'at is a formatted timestamp');

  t.same(await proc.stop('SIGTERM'), { code: 0, signal: null });
  t.ok(proc.lines.length > 3);
  for (const line of proc.lines) {
    if (line === '') continue;
    t.doesNotThrow(() => JSON.parse(line), `a JSON line: ${line.slice(0, 80)}`);
  }
  t.same(JSON.parse(proc.lines.filter(Boolean).at(-1)!), { type: 'stopped' });
});

t.test('a port already in use: non-zero exit and a clear message', async (t) => {
  const cwd = t.testdir();
  const first = await startPayemu(t, ['--in-memory'], { cwd });
  const second = await runPayemu(t, ['start', '--port', String(first.port), '--in-memory'], { cwd });
  t.not(second.code, 0);
  t.match(second.stderr, new RegExp(`port ${first.port} .*in use`));
  t.match(second.stderr, /--port 0/, 'suggests a way out');
  t.notMatch(second.stdout, /listening/, 'no readiness line');
  t.equal((await client(first.url, TEST_KEY).get('/v1/me')).status, 200, 'the first one keeps serving');
});

t.test('an invalid --port is an error', async (t) => {
  for (const value of ['abc', '70000', '-1']) {
    const res = await runPayemu(t, ['start', '--port', value, '--in-memory'], { cwd: t.testdir() });
    t.not(res.code, 0, `--port ${value}`);
    t.match(res.stderr, /port/i);
    t.match(res.stderr, value);
    t.equal(res.stdout, '', 'nothing started');
  }
});

t.test('an unknown command or option is an error', async (t: Test) => {
  const res = await runPayemu(t, ['start', '--no-such-flag'], { cwd: t.testdir() });
  t.not(res.code, 0);
  t.match(res.stderr, /--no-such-flag/);
});
