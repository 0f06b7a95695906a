import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { createClient } from '../src/client/client.js';
import { startEmulator } from '../src/index.js';
import { runPayemu } from './helpers/cli.js';
import { emulator } from './helpers/emulator.js';

t.test('payemu fault add, list, remove and clear act on the running emulator', async (t) => {
  const e = await emulator(t);
  const at = ['--url', e.url, '--key', e.keys.test];

  const added = await runPayemu(t, ['fault', 'add', ...at, '--path', '/v1/me', '--method', 'get', '--status', '503', '--times', '2', '--seed', '7', '--json']);
  t.equal(added.code, 0, added.stderr);
  const fault = JSON.parse(added.stdout);
  t.match(fault, { method: 'GET', path: '/v1/me', status: 503, times: 2, seed: 7, hits: 0 });
  t.equal((await createClient({ url: e.url, key: e.keys.test }).request('GET', '/v1/me')).status, 503);

  const slow = await runPayemu(t, ['fault', 'add', ...at, '--path', '/v1/payments/**', '--latency', '2s', '--drop', '--apply', '--probability', '0.5']);
  t.equal(slow.code, 0, slow.stderr);
  t.equal(
    slow.stdout.replace(/flt_\w{24}/, 'flt_ID'),
    'added flt_ID  any /v1/payments/**  wait 2000 ms, drop the connection, after running the request  hits 0  probability 0.5, seed 1',
  );

  const listed = await runPayemu(t, ['fault', 'list', ...at]);
  t.equal(listed.code, 0);
  t.match(listed.stdout, new RegExp(`^${fault.id}  GET /v1/me  answer 503  hits 1/2`));
  t.equal(listed.stdout.trim().split('\n').length, 2);
  const json = await runPayemu(t, ['fault', 'list', ...at, '--json']);
  t.same(
    JSON.parse(json.stdout).map((f: { id: string }) => f.id),
    (await e.faults.list()).map((f) => f.id),
  );

  const removed = await runPayemu(t, ['fault', 'remove', fault.id, ...at]);
  t.equal(removed.code, 0);
  t.equal(removed.stdout, `removed ${fault.id}`);
  const missing = await runPayemu(t, ['fault', 'remove', fault.id, ...at]);
  t.equal(missing.code, 1);
  t.match(missing.stderr, /404: No fault with id/);

  const cleared = await runPayemu(t, ['fault', 'clear', ...at]);
  t.equal(cleared.stdout, 'removed 1 fault');
  t.same(await e.faults.list(), []);
});

t.test('payemu fault add refuses what is not a fault: usage errors exit 2, the 422 exits 1 naming the field', async (t) => {
  const e = await emulator(t);
  const at = ['--url', e.url, '--key', e.keys.test];
  const noPath = await runPayemu(t, ['fault', 'add', ...at, '--status', '503']);
  t.equal(noPath.code, 2);
  t.match(noPath.stderr, /--path/);
  const latency = await runPayemu(t, ['fault', 'add', ...at, '--path', '/v1/me', '--latency', 'soon']);
  t.equal(latency.code, 2);
  t.match(latency.stderr, /'--latency <duration>' argument 'soon' is invalid\. must be a duration/);
  const nothing = await runPayemu(t, ['fault', 'add', ...at, '--path', '/v1/me']);
  t.equal(nothing.code, 1);
  t.match(nothing.stderr, /422: A fault must do something/);
  t.match(nothing.stderr, /status:/);
  t.same(await e.faults.list(), []);
});

t.test('payemu fault add: a value out of its range or unreadable is exit 2 naming the option, before any request', async (t) => {
  const cases: [string[], RegExp][] = [
    [['--status', '503', '--method', 'FETCH'], /'--method <method>' argument 'FETCH' is invalid\. must be one of GET, POST, PATCH, PUT, DELETE\./],
    [['--status', 'abc'], /'--status <code>' argument 'abc' is invalid\. must be a status code from 400 to 599\./],
    [['--status', '200'], /'--status <code>' argument '200' is invalid/],
    [['--latency', '5x'], /'--latency <duration>' argument '5x' is invalid\. must be a duration of at most 60s/],
    [['--latency', '2m'], /'--latency <duration>' argument '2m' is invalid/],
    [['--status', '503', '--probability', '2'], /'--probability <p>' argument '2' is invalid\. must be a number from 0 to 1/],
    [['--status', '503', '--times', '0'], /'--times <n>' argument '0' is invalid\. must be a whole number from 1 to 2147483647\./],
    [['--status', '503', '--times', '1.5'], /'--times <n>' argument '1\.5' is invalid/],
    [['--status', '503', '--seed', '-1'], /'--seed <n>' argument '-1' is invalid\. must be a whole number from 0 to 4294967295\./],
  ];
  // Nothing listens at the URL: a request would be exit 3.
  for (const [args, line] of cases) {
    const res = await runPayemu(t, ['fault', 'add', '--url', 'http://127.0.0.1:9', '--path', '/v1/me', ...args]);
    t.equal(res.code, 2, args.join(' '));
    t.equal(res.stderr.split('\n').filter(Boolean).length, 1, `${args.join(' ')}: one line`);
    t.match(res.stderr, line);
    t.match(res.stderr, /See `payemu fault add --help`\.$/m);
  }
  const e = await emulator(t);
  const lower = await runPayemu(t, ['fault', 'add', '--url', e.url, '--path', '/v1/me', '--method', 'get', '--latency', '60s', '--probability', '0.5']);
  t.equal(lower.code, 0, `the edges are taken, a method in any letter case: ${lower.stderr}`);
  t.match(await e.faults.list(), [{ method: 'GET', latency_ms: 60_000, probability: 0.5 }]);
});

t.test('a config reload replaces the faults of a Source whose list changed and keeps the others as they stand', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-faults-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'payemu.config.json');
  const write = (acme: object[], globex: object[]) =>
    fs.writeFileSync(
      file,
      JSON.stringify({
        sources: [
          { slug: 'acme', faults: acme },
          { slug: 'globex', faults: globex },
        ],
      }),
    );
  write([{ method: 'GET', path: '/v1/me', status: 503 }], [{ method: 'GET', path: '/v1/me', status: 502, times: 5 }]);
  const e = await startEmulator({ config: file });
  t.teardown(() => e.close());
  const globexKey = e.sources.find((s) => s.slug === 'globex')!.test_key;
  t.equal((await createClient({ url: e.url, key: globexKey }).request('GET', '/v1/me')).status, 502);

  const reloaded = new Promise<void>((resolve) => {
    const off = e.bus.on('config.reloaded', () => {
      off();
      resolve();
    });
  });
  write([{ method: 'GET', path: '/v1/me', status: 504 }], [{ method: 'GET', path: '/v1/me', status: 502, times: 5 }]);
  await reloaded;
  const acme = await e.faults.list();
  t.equal(acme.length, 1);
  t.equal(acme[0]!.status, 504, "the changed list replaced the Source's config faults");
  const globex = await e.faults.list({ key: globexKey });
  t.equal(globex[0]!.hits, 1, 'the unchanged list kept its fault as it stood');
});
