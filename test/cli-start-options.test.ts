import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import t from 'tap';
import { paidSession, runPayemu, startPayemu, waitUntilRefused } from './helpers/cli.js';
import { client } from './helpers/emulator.js';

// The real binary (bin/payemu.js running dist/), spawned on port 0 in temporary directories:
// what `payemu start`'s options do: --port, --host, --in-memory, --data (a restart, a second
// payemu refused), a signal with a request in flight, --freeze-clock, --clock-start, --rate-limit.
// Each test has its own processes, ports and directories: they run a few at a time.
t.jobs = 4;
// Every test spawns the binary: on a loaded machine (the whole suite at once) that is slow.
t.setTimeout(240_000);

const TEST_KEY = 'sk_test_payemu_acme';

function canListen(host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(0, host, () => server.close(() => resolve(true)));
  });
}

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
