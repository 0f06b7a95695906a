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
  t.match(latency.stderr, /--latency: not a duration/);
  const nothing = await runPayemu(t, ['fault', 'add', ...at, '--path', '/v1/me']);
  t.equal(nothing.code, 1);
  t.match(nothing.stderr, /422: A fault must do something/);
  t.match(nothing.stderr, /status:/);
  t.same(await e.faults.list(), []);
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
