import t from 'tap';
import { createClient } from '../src/client/client.js';
import { runPayemu, spawnPayemu, startPayemu } from './helpers/cli.js';

const KEY = 'sk_test_payemu_acme';

// Each test runs several CLI processes; a loaded CI machine takes seconds for each.
t.setTimeout(240_000);

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
  t.equal(bad.code, 2, 'a status the command can judge: a usage error');
  t.match(bad.stderr, /^payemu: option '--status <status>' argument '4x' is invalid/);
  const refused = await runPayemu(t, ['requests', '--url', url, '--key', KEY, '--path', 'v1/me'], { cwd });
  t.equal(refused.code, 1, 'what payemu refuses is exit 1');
  t.match(refused.stderr, /^payemu: 422: .*path/);

  const cleared = await runPayemu(t, ['requests', 'clear', '--url', url, '--key', KEY], { cwd });
  t.equal(cleared.stdout, 'cleared 3 requests');
  const empty = await runPayemu(t, ['requests', '--url', url, '--key', KEY], { cwd });
  t.equal(empty.stdout, 'no requests yet');
});

t.test('payemu requests: a bad --method, --status or --limit is exit 2 naming the option, before any request', async (t) => {
  const cases: [string[], RegExp][] = [
    [['--method', 'P O'], /'--method <method>' argument 'P O' is invalid\. must be an HTTP method, such as POST\./],
    [['--status', '2x'], /'--status <status>' argument '2x' is invalid\. must be a status code \(422\) or a class \(4xx\)\./],
    [['--status', '600'], /'--status <status>' argument '600' is invalid/],
    [['--limit', '1001'], /'--limit <n>' argument '1001' is invalid\. must be a whole number from 1 to 1000\./],
    [['--follow', '--limit', 'x'], /'--limit <n>' argument 'x' is invalid/],
    [['--follow', '--limit', '5'], /^payemu: requests --follow prints every new request: it takes no --limit\./],
  ];
  for (const [args, line] of cases) {
    const res = await runPayemu(t, ['requests', '--url', 'http://127.0.0.1:9', ...args]);
    t.equal(res.code, 2, args.join(' '));
    t.equal(res.stderr.split('\n').filter(Boolean).length, 1, `${args.join(' ')}: one line`);
    t.match(res.stderr, line);
  }
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

t.test('payemu requests reads a journal holding a body 5,000 levels deep: the table and --json, the body cut at 64 levels', async (t) => {
  const cwd = t.testdir();
  const { url } = await startPayemu(t, ['--in-memory', '--no-ui'], { cwd });
  const api = createClient({ url, key: KEY });
  const deep = await api.request('POST', '/v1/sessions', '['.repeat(5000) + ']'.repeat(5000), { 'Content-Type': 'application/json' });
  t.equal(deep.status, 400);

  const table = await runPayemu(t, ['requests', '--url', url, '--key', KEY], { cwd });
  t.equal(table.code, 0, table.stderr);
  t.match(table.stdout, /POST +\/v1\/sessions +400 /);
  const json = await runPayemu(t, ['requests', '--url', url, '--key', KEY, '--json'], { cwd });
  t.equal(json.code, 0, json.stderr);
  const [entry] = JSON.parse(json.stdout).requests;
  t.equal(entry.request_body_cut, true);
  let level = entry.request_body;
  for (let i = 1; i < 64; i++) level = level[0];
  t.same(level, ['…[cut: nested deeper than 64 levels]'], 'the 65th level is the marker');
});
