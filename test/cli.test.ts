import fs from 'node:fs';
import http from 'node:http';
import module from 'node:module';
import net from 'node:net';
import path from 'node:path';
import t, { type Test } from 'tap';
import { runPayemu, startPayemu, waitUntilRefused } from './helpers/cli.js';
import { client } from './helpers/emulator.js';

// The real binary (bin/payemu.js running dist/), spawned on port 0 in temporary directories.
// Each test has its own processes, ports and directories: they run a few at a time.
t.jobs = 4;
// Every test spawns the binary: on a loaded machine (the whole suite at once) that is slow.
t.setTimeout(240_000);

const TEST_KEY = 'sk_test_payemu_acme';
const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

/** Creates a session and pays it with the approved test card; returns the session id. */
async function paidSession(url: string, reference: string, key = TEST_KEY): Promise<string> {
  const api = client(url, key);
  const session = await api.post('/v1/sessions', { amount: 12.34, reference });
  if (session.status !== 201) throw new Error(`session not created: ${session.text}`);
  const completed = await api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: '4242424242424242' });
  if (completed.status !== 200) throw new Error(`session not paid: ${completed.text}`);
  return session.body.data.id as string;
}

function canListen(host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(0, host, () => server.close(() => resolve(true)));
  });
}

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

t.test('--port 0 picks a free port each time', async (t) => {
  const cwd = t.testdir();
  const [a, b] = await Promise.all([startPayemu(t, ['--port', '0', '--in-memory'], { cwd }), startPayemu(t, ['--port', '0', '--in-memory'], { cwd })]);
  t.not(a.port, 0);
  t.not(b.port, 0);
  t.not(a.port, b.port, 'two emulators, two ports');
  t.equal((await client(a.url, TEST_KEY).get('/v1/me')).status, 200);
  t.equal((await client(b.url, TEST_KEY).get('/v1/me')).status, 200);
});

t.test('--host sets the listening address and the printed URL', async (t) => {
  for (const [host, printed] of [
    ['127.0.0.2', '127.0.0.2'],
    ['::1', '[::1]'],
  ] as const) {
    await t.test(host, { skip: !(await canListen(host)) && `cannot listen on ${host} here` }, async (t) => {
      const { proc, url, port, first } = await startPayemu(t, ['--host', host, '--in-memory'], { cwd: t.testdir() });
      t.equal(first, `payemu listening on http://${printed}:${port}`);
      t.equal(url, `http://${printed}:${port}`);
      t.equal((await client(url, TEST_KEY).get('/v1/me')).status, 200, 'served on the host');
      const elsewhere = await new Promise<string>((resolve) => {
        const socket = net.connect({ port, host: '127.0.0.1' });
        socket.once('connect', () => {
          socket.destroy();
          resolve('connected');
        });
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      });
      t.equal(elsewhere, 'ECONNREFUSED', 'not listening on 127.0.0.1');
      t.same(await proc.stop(), { code: 0, signal: null });
    });
  }
});

t.test('--in-memory writes nothing in the working directory', async (t) => {
  const cwd = t.testdir();
  const { proc, url, first } = await startPayemu(t, ['--in-memory'], { cwd });
  t.match(first, /^payemu listening on /);
  await paidSession(url, 'mem_1');
  t.same(await proc.stop(), { code: 0, signal: null });
  t.same(fs.readdirSync(cwd), [], 'no .payemu/ nor anything else');
});

t.test('the default data directory is .payemu/ in the working directory', async (t) => {
  const cwd = t.testdir();
  const { proc, url } = await startPayemu(t, [], { cwd });
  await paidSession(url, 'default_dir_1');
  const store = await proc.waitForLine(/^\s+store\s/);
  t.match(store, path.join(cwd, '.payemu'), 'the banner names the data directory');
  t.ok(fs.statSync(path.join(cwd, '.payemu')).isDirectory(), '.payemu/ exists while running');
  t.same(await proc.stop(), { code: 0, signal: null });
  t.ok(fs.readdirSync(path.join(cwd, '.payemu')).length > 0, 'it holds the store');

  // Started again in the same directory, it continues with the same data.
  const again = await startPayemu(t, [], { cwd });
  const payment = await client(again.url, TEST_KEY).get('/v1/payments/default_dir_1');
  t.equal(payment.status, 200);
  t.equal(payment.body.data.attributes.status, 'PAID');
  t.same(await again.proc.stop(), { code: 0, signal: null });
});

t.test('--data DIR: a restart continues where it stopped (session, payment, clock offset)', async (t) => {
  const root = t.testdir({ cwd: {}, state: {} });
  const cwd = path.join(root, 'cwd');
  const data = path.join(root, 'state');
  const one = await startPayemu(t, ['--data', data], { cwd });
  const api1 = client(one.url, TEST_KEY);
  const paidId = await paidSession(one.url, 'restart_1');
  const advanced = await api1.post('/_payemu/clock/advance', { by: '2d' });
  t.equal(advanced.status, 200);
  t.equal(advanced.body.offset_seconds, 172800);
  const open = await api1.post('/v1/sessions', { amount: 5, reference: 'open_1' });
  t.equal(open.status, 201);
  t.same(await one.proc.stop('SIGTERM'), { code: 0, signal: null });
  t.match(one.proc.lines.at(-1), 'payemu stopped');
  t.same(fs.readdirSync(cwd), [], '--data DIR keeps nothing in the working directory');

  const two = await startPayemu(t, ['--data', data], { cwd });
  const api2 = client(two.url, TEST_KEY);
  const session = await api2.get(`/v1/sessions/${open.body.data.id}`);
  t.equal(session.status, 200, 'the open session survived');
  t.equal(session.body.data.attributes.status, 'open');
  const paidSessionAgain = await api2.get(`/v1/sessions/${paidId}`);
  t.equal(paidSessionAgain.body.data.attributes.status, 'complete');
  const payment = await api2.get('/v1/payments/restart_1');
  t.equal(payment.status, 200, 'the paid payment survived');
  t.match(payment.body.data.attributes, { reference: 'restart_1', amount: '12.34', status: 'PAID', paid: true });
  const clock = await api2.get('/_payemu/clock');
  t.equal(clock.status, 200);
  t.equal(clock.body.frozen, false);
  t.ok(Math.abs(clock.body.offset_seconds - 172800) <= 1, `the clock offset survived (${clock.body.offset_seconds})`);
  t.ok(Date.parse(clock.body.now) >= Date.now() + 172_790_000, 'virtual now is still two days ahead');
  // New payment ids continue after the old ones.
  const second = await paidSession(two.url, 'restart_2');
  t.ok(second);
  const list = await api2.get('/v1/payments');
  t.same(list.body.data.map((p: { attributes: { reference: string } }) => p.attributes.reference).sort(), ['restart_1', 'restart_2']);
  t.not(list.body.data[0].id, list.body.data[1].id);
  t.same(await two.proc.stop('SIGINT'), { code: 0, signal: null });
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  t.test(`${signal} stops cleanly: exit code 0 and "payemu stopped"`, async (t) => {
    const cwd = t.testdir();
    const { proc, url } = await startPayemu(t, ['--data', path.join(cwd, 'data')], { cwd });
    t.equal((await client(url, TEST_KEY).get('/v1/me')).status, 200);
    const exit = await proc.stop(signal);
    t.same(exit, { code: 0, signal: null }, 'exit code 0');
    t.equal(proc.lines.filter(Boolean).at(-1), 'payemu stopped');
    t.equal(proc.stderr, '', 'nothing on stderr');
    t.notOk(fs.existsSync(path.join(cwd, 'data', 'payemu.lock')), 'the data directory is unlocked');
  });
}

t.test('a request in flight when the signal arrives finishes, and its write is kept', async (t) => {
  const cwd = t.testdir();
  const data = path.join(cwd, 'data');
  const { proc, url, port } = await startPayemu(t, ['--data', data], { cwd });
  const agent = new http.Agent({ keepAlive: true });
  t.teardown(() => agent.destroy());
  const body = JSON.stringify({ amount: 7.5, reference: 'inflight_1' });
  const req = http.request(`${url}/v1/sessions`, {
    method: 'POST',
    agent,
    headers: { Authorization: `Bearer ${TEST_KEY}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Expect: '100-continue' },
  });
  const answer = new Promise<{ status: number; connection: string | undefined; text: string }>((resolve, reject) => {
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.once('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, text }));
    });
    req.once('error', reject);
  });
  // "100 Continue" means the server has the request and its handler waits for the body.
  await new Promise<void>((resolve) => req.once('continue', () => resolve()));
  proc.child.kill('SIGTERM');
  await waitUntilRefused(port); // the server has stopped accepting: the stop is under way
  t.equal(proc.child.exitCode, null, 'still running while the request is in flight');
  req.end(body);
  const res = await answer;
  t.equal(res.status, 201, `the in-flight request was answered: ${res.text.slice(0, 200)}`);
  t.equal(res.connection, 'close', 'and its connection is closed instead of kept alive');
  const exit = await proc.waitForExit();
  t.same(exit, { code: 0, signal: null });
  t.equal(proc.lines.filter(Boolean).at(-1), 'payemu stopped');

  const again = await startPayemu(t, ['--data', data], { cwd });
  const created = JSON.parse(res.text).data.id as string;
  const session = await client(again.url, TEST_KEY).get(`/v1/sessions/${created}`);
  t.equal(session.status, 200, 'the session created during the stop is in the store');
  t.equal(session.body.data.attributes.reference, 'inflight_1');
  await again.proc.stop();
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

t.test('a second payemu on the same data directory is refused while the first runs', async (t) => {
  const cwd = t.testdir();
  const data = path.join(cwd, 'data');
  const first = await startPayemu(t, ['--data', data], { cwd });
  await paidSession(first.url, 'locked_1');
  for (let attempt = 1; attempt <= 2; attempt++) {
    const second = await runPayemu(t, ['start', '--port', '0', '--data', data], { cwd });
    t.not(second.code, 0, `attempt ${attempt} refused`);
    t.match(second.stderr, /in use by another payemu/);
    t.match(second.stderr, data);
    t.match(second.stderr, String(first.proc.pid), 'names the pid holding it');
    t.notMatch(second.stdout, /listening/);
  }
  const payment = await client(first.url, TEST_KEY).get('/v1/payments/locked_1');
  t.equal(payment.status, 200, 'the first one still serves its data');
  t.same(await first.proc.stop(), { code: 0, signal: null });
  // Once the first has stopped, the directory is free again.
  const third = await startPayemu(t, ['--data', data], { cwd });
  t.equal((await client(third.url, TEST_KEY).get('/v1/payments/locked_1')).status, 200);
  await third.proc.stop();
});

t.test('--freeze-clock: the clock stands still between requests', async (t) => {
  const { proc, url } = await startPayemu(t, ['--freeze-clock', '--in-memory'], { cwd: t.testdir() });
  const api = client(url, TEST_KEY);
  const before = await api.get('/_payemu/clock');
  t.equal(before.body.frozen, true);
  const a = await api.post('/v1/sessions', { amount: 1 });
  const b = await api.post('/v1/sessions', { amount: 2 });
  const [sa, sb] = await Promise.all([api.get(`/v1/sessions/${a.body.data.id}`), api.get(`/v1/sessions/${b.body.data.id}`)]);
  const after = await api.get('/_payemu/clock');
  t.equal(after.body.now, before.body.now, 'exactly the same time');
  t.equal(sa.body.data.attributes.created_at, before.body.now);
  t.equal(sb.body.data.attributes.created_at, before.body.now);
  const advanced = await api.post('/_payemu/clock/advance', { by: '90m' });
  t.equal(advanced.status, 200);
  t.equal(Date.parse(advanced.body.now) - Date.parse(before.body.now), 90 * 60_000, 'it moves only on advance');
  t.equal((await api.get('/_payemu/clock')).body.now, advanced.body.now);
  t.equal((await api.get('/_payemu/clock')).body.frozen, true);
  await proc.stop();
});

t.test('--clock-start sets where the clock starts', async (t) => {
  await t.test('with --freeze-clock, exactly there', async (t) => {
    const { proc, url } = await startPayemu(t, ['--clock-start', '2030-01-01T00:00:00Z', '--freeze-clock', '--in-memory'], { cwd: t.testdir() });
    const api = client(url, TEST_KEY);
    const clock = await api.get('/_payemu/clock');
    t.equal(clock.body.now, '2030-01-01T00:00:00.000000Z');
    t.equal(clock.body.frozen, true);
    const session = await api.post('/v1/sessions', { amount: 1 });
    t.equal(session.body.data.attributes.expires_at, '2030-01-02T00:00:00.000000Z', 'sessions live on the virtual clock');
    await proc.stop();
  });
  await t.test('following real time from there', async (t) => {
    const { proc, url } = await startPayemu(t, ['--clock-start', '2030-01-01T00:00:00Z', '--in-memory', '--json'], { cwd: t.testdir() });
    const clock = await client(url, TEST_KEY).get('/_payemu/clock');
    t.equal(clock.body.frozen, false);
    const now = Date.parse(clock.body.now);
    t.ok(now >= Date.parse('2030-01-01T00:00:00Z') && now < Date.parse('2030-01-01T00:01:00Z'), `starts at 2030-01-01 (${clock.body.now})`);
    t.ok(clock.body.offset_seconds > 0);
    await proc.stop();
  });
  await t.test('an invalid timestamp is refused, and leaves the data directory unlocked', async (t) => {
    const cwd = t.testdir();
    const res = await runPayemu(t, ['start', '--port', '0', '--data', 'data', '--clock-start', 'tomorrow'], { cwd });
    t.equal(res.code, 2);
    t.match(res.stderr, /--clock-start/);
    t.match(res.stderr, /tomorrow/);
    t.equal(res.stdout, '');
    t.notOk(fs.existsSync(path.join(cwd, 'data', 'payemu.lock')), 'no lock left behind');
  });
});

t.test("--rate-limit enforces every Source's rate_limit_per_minute", async (t) => {
  const cwd = t.testdir({ 'payemu.config.json': JSON.stringify({ sources: [{ slug: 'acme', rate_limit_per_minute: 2 }] }) });
  const { proc, url } = await startPayemu(t, ['--rate-limit', '--in-memory'], { cwd });
  const api = client(url, TEST_KEY);
  t.equal((await api.get('/v1/me')).status, 200);
  t.equal((await api.get('/v1/me')).status, 200);
  const limited = await api.get('/v1/me');
  t.equal(limited.status, 429);
  t.match(limited.headers.get('retry-after'), /^\d+$/);
  await proc.stop();
});

t.test('an unknown command or option is an error', async (t: Test) => {
  const res = await runPayemu(t, ['start', '--no-such-flag'], { cwd: t.testdir() });
  t.not(res.code, 0);
  t.match(res.stderr, /--no-such-flag/);
});
