import t, { type Test } from 'tap';
import { createClient } from '../src/client/client.js';
import { runPayemu, spawnPayemu, startPayemu } from './helpers/cli.js';
import { receiver } from './helpers/receiver.js';

const KEY = 'sk_test_payemu_acme';

t.test('payemu requests: a table by default, --json, filters, the journal size of start, clear', async (t) => {
  const cwd = t.testdir();
  const { url } = await startPayemu(t, ['--in-memory', '--no-ui', '--journal-size', '3'], { cwd });
  const api = createClient({ url, key: KEY });
  await api.request('POST', '/v1/sessions', { amount: 10, reference: 'cli-1' }, { 'Idempotency-Key': 'idem-1' });
  await api.request('POST', '/v1/payments/cli-1/refunds', { amount: 1 });
  await api.request('GET', '/v1/me?verbose=1');
  await api.request('GET', '/v1/me');

  const table = await runPayemu(t, ['requests', '--url', url, '--key', KEY], { cwd });
  t.equal(table.code, 0, table.stderr);
  const rows = table.stdout.split('\n');
  t.equal(rows.length, 3, 'the journal keeps the last 3 (--journal-size 3)');
  t.match(rows[0], /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}GET {3}\/v1\/me {2,}200 {2,}\d+ ms {2}req_\w{24}$/);
  t.match(rows[1], /GET {3}\/v1\/me\?verbose=1 +200 /);
  t.match(rows[2], /POST {2}\/v1\/payments\/cli-1\/refunds +4\d\d /);

  const json = await runPayemu(t, ['requests', '--url', url, '--key', KEY, '--json', '--status', '4xx'], { cwd });
  t.equal(json.code, 0, json.stderr);
  const parsed = JSON.parse(json.stdout);
  t.equal(parsed.total, 1);
  t.match(parsed.requests[0], { method: 'POST', path: '/v1/payments/cli-1/refunds', request_body: { amount: 1 } });

  const byPath = await runPayemu(t, ['requests', '--url', url, '--key', KEY, '--json', '--path', '/v1/*', '--method', 'get', '--limit', '1'], { cwd });
  t.match(JSON.parse(byPath.stdout), { total: 2, requests: [{ path: '/v1/me', query: {} }] });

  const bad = await runPayemu(t, ['requests', '--url', url, '--key', KEY, '--status', '4x'], { cwd });
  t.equal(bad.code, 1);
  t.match(bad.stderr, /^payemu: 422: .*status/);

  const cleared = await runPayemu(t, ['requests', 'clear', '--url', url, '--key', KEY], { cwd });
  t.equal(cleared.stdout, 'cleared 3 requests');
  const empty = await runPayemu(t, ['requests', '--url', url, '--key', KEY], { cwd });
  t.equal(empty.stdout, 'no requests yet');
});

t.test('payemu requests --follow prints each new request once, oldest first, on a frozen clock too', async (t) => {
  const cwd = t.testdir();
  const { url } = await startPayemu(t, ['--in-memory', '--no-ui', '--freeze-clock'], { cwd });
  const api = createClient({ url, key: KEY });
  await api.request('GET', '/v1/me?before=1');
  const follow = spawnPayemu(t, ['requests', '--follow', '--url', url, '--key', KEY, '--path', '/v1/me'], { cwd });
  t.match(await follow.nextLine(), /^following requests at http/);
  await api.request('GET', '/v1/me?n=1');
  await api.request('POST', '/v1/sessions', { amount: 5 }); // another path: filtered out
  t.match(await follow.nextLine(), /GET +\/v1\/me\?n=1 +200 /);
  await api.request('GET', '/v1/me?n=2');
  await api.request('GET', '/v1/me?n=3');
  t.match(await follow.nextLine(), /\/v1\/me\?n=2 /);
  t.match(await follow.nextLine(), /\/v1\/me\?n=3 /);
  await follow.stop('SIGINT');
  t.notMatch(follow.stdout, /before=1|sessions/, 'neither what came before nor another path');
});

/** A command for exec: a payment through the API, so that payment.completed is raised and sent. */
const paying = (exitCode = 0) => `
  const api = (path, body) => fetch(process.env.PAYEMU_URL + path, { method: 'POST', headers: { Authorization: 'Bearer ' + process.env.PAYEMU_API_KEY, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
  const session = await api('/v1/sessions', { amount: 12, reference: 'exec-1' });
  await api('/_payemu/sessions/' + session.data.id + '/complete', { card_number: '4242424242424242' });
  process.exit(${exitCode});`;

const exec = (t: Test, flags: string[], exitCode = 0) =>
  runPayemu(t, ['exec', ...flags, '--', process.execPath, '--input-type=module', '-e', paying(exitCode)], { cwd: t.testdir() });

t.test('exec --expect-delivered: 0 once every event is delivered', async (t) => {
  const hook = await receiver(t);
  const res = await exec(t, ['--webhook-url', hook.url, '--webhook-backoff', '0,0,0', '--expect-delivered']);
  t.equal(res.code, 0, res.stderr);
  t.ok(hook.received.length >= 1, 'the receiver got the event');
  t.notMatch(res.stderr, /not delivered/);

  // A receiver that fails the first attempt: exec waits for the retry, which succeeds.
  let answered = 0;
  const flaky = await receiver(t, (_req, res) => {
    res.statusCode = answered++ === 0 ? 503 : 200;
    res.end();
  });
  const retried = await exec(t, ['--webhook-url', flaky.url, '--webhook-backoff', '0,0,0', '--expect-delivered']);
  t.equal(retried.code, 0, retried.stderr);
  t.equal(flaky.received.length, 2, 'delivered on the retry');
});

t.test('exec --expect-delivered: exit 3 listing the events a failing receiver never acknowledged', async (t) => {
  const hook = await receiver(t, (_req, res) => {
    res.statusCode = 500;
    res.end('down');
  });
  const res = await exec(t, ['--webhook-url', hook.url, '--webhook-backoff', '0,0,0', '--expect-delivered', '--settle', '30s']);
  t.equal(res.code, 3, res.stderr);
  t.match(
    res.stderr,
    /payemu: 1 webhook event was not delivered \(--expect-delivered\):\n {2}failed +payment\.completed {2}acme test {2}[0-9a-f-]{36} {2}last attempt: 500/,
  );
  t.equal(hook.received.length, 4, 'the first attempt and three retries were made before judging');
});

t.test('exec --expect-delivered without a webhook URL: exit 3, and the message says to set --webhook-url', async (t) => {
  const res = await exec(t, ['--expect-delivered']);
  t.equal(res.code, 3, res.stderr);
  t.match(res.stderr, /no_endpoint +payment\.completed {2}acme test .*no webhook URL/);
  t.match(res.stderr, /set --webhook-url/);
});

t.test("exec --expect-delivered: a failing command's own exit code wins", async (t) => {
  const res = await exec(t, ['--expect-delivered'], 5);
  t.equal(res.code, 5);
  t.notMatch(res.stderr, /not delivered/, 'nothing judged: the command failed first');
  const bad = await runPayemu(t, ['exec', '--expect-delivered', '--settle', 'soon', '--', process.execPath, '-e', '0'], { cwd: t.testdir() });
  t.equal(bad.code, 2);
  t.match(bad.stderr, /--settle/);
});
