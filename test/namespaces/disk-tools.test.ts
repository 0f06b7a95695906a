import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { runPayemu, startPayemu } from '../helpers/cli.js';
import { client, type Client } from '../helpers/emulator.js';

/**
 * The offline tools over a data directory with named namespaces (DATA/namespaces/NAME):
 * `payemu doctor` checks and repairs each namespace's directory too, naming the one with damage;
 * `payemu reset --data DIR` keeps the named namespaces unless --all-namespaces. Real processes:
 * run `npm run build` first.
 */

t.setTimeout(240_000);
const KEY = 'sk_test_payemu_acme';

/** A data directory path in a fresh temporary folder, also the commands' working directory (no config file there). */
function dataDir(t: Test): { dir: string; cwd: string } {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-ns-disk-'));
  t.teardown(() => fs.rmSync(cwd, { recursive: true, force: true }));
  return { dir: path.join(cwd, 'data'), cwd };
}

async function payIn(api: Client, reference: string): Promise<void> {
  const session = await api.post('/v1/sessions', { amount: 10, reference });
  await api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: '4242424242424242' });
}

const start = (t: Test, dir: string, cwd: string) => startPayemu(t, ['--data', dir, '--no-ui'], { cwd });

t.test("doctor checks every namespace's directory, names the damaged one, and repairs it", async (t) => {
  const { dir, cwd } = dataDir(t);
  const first = await start(t, dir, cwd);
  await payIn(client(first.url, KEY), 'd-1');
  await payIn(client(first.url, `${KEY}~w3`), 'w3-1');
  await payIn(client(first.url, `${KEY}~w3`), 'w3-2');
  await payIn(client(first.url, `${KEY}~w4`), 'w4-1');
  const held = await runPayemu(t, ['doctor', '--data', path.join(dir, 'namespaces', 'w3')], { cwd });
  t.equal(held.code, 1, "a namespace's directory is held by the payemu holding the data directory");
  t.match(held.stderr, `is in use by a running payemu (pid ${first.proc.pid}) at ${first.url}`);
  t.same(await first.proc.stop(), { code: 0, signal: null });

  fs.mkdirSync(path.join(dir, 'namespaces', 'Not-A-Name'));
  fs.mkdirSync(path.join(dir, 'namespaces', 'never'));
  const healthy = await runPayemu(t, ['doctor', '--data', dir], { cwd });
  t.equal(healthy.code, 0, healthy.stdout + healthy.stderr);
  t.match(healthy.stdout, `  namespace w3 (${path.join(dir, 'namespaces', 'w3')}):\n    journal-000001.ndjson: `);
  t.match(healthy.stdout, '  namespace w4 (');
  t.match(
    healthy.stdout,
    'note: namespaces/Not-A-Name is not a namespace name (1 to 32 characters of a-z, 0-9, _ and -): no key selects it, payemu leaves it alone',
  );
  t.match(healthy.stdout, 'note: namespaces/never holds no whole journal line (made for a first request never answered): a start removes it');
  t.match(healthy.stdout, /healthy: \d+ records, and \d+ in 2 namespaces/);

  // The line of w3's second session loses its middle.
  const journal = path.join(dir, 'namespaces', 'w3', 'journal-000001.ndjson');
  const whole = fs.readFileSync(journal, 'utf8');
  const lines = whole.split('\n');
  const index = lines.findIndex((line) => line.includes('"w3-2"'));
  t.ok(index > 0, `w3-2 is written in line ${index + 1}`);
  lines[index] = lines[index]!.slice(0, 30) + lines[index]!.slice(60);
  fs.writeFileSync(journal, lines.join('\n'));

  const refused = await runPayemu(t, ['start', '--data', dir, '--no-ui', '--port', '0'], { cwd });
  t.equal(refused.code, 1, 'a damaged namespace stops the start');
  t.match(refused.stderr, `payemu: store damaged: journal-000001.ndjson line ${index + 1}`);
  t.match(refused.stderr, `(in ${path.join(dir, 'namespaces', 'w3')})`);
  t.notOk(fs.existsSync(path.join(dir, 'payemu.lock')), 'and leaves the directory free');

  const damaged = await runPayemu(t, ['doctor', '--data', dir], { cwd });
  t.equal(damaged.code, 1);
  t.match(damaged.stdout, `\n  damaged: journal-000001.ndjson line ${index + 1}`);
  t.match(damaged.stdout, /\n\d damaged places? \(namespace w3\); \d+ records, and \d+ in 2 namespaces are readable/);
  t.match(damaged.stdout, `run: payemu doctor --data ${dir} --repair`);
  const json = JSON.parse((await runPayemu(t, ['doctor', '--data', dir, '--json'], { cwd })).stdout);
  t.match(json, {
    healthy: false,
    damage: [],
    namespaces: [
      { name: 'w3', healthy: false, damage: [{ file: 'journal-000001.ndjson', line: index + 1 }] },
      { name: 'w4', healthy: true, damage: [] },
    ],
  });
  t.equal(json.namespaces.length, 2);
  // The start's message names the namespace's own directory: doctor takes that too.
  t.equal((await runPayemu(t, ['doctor', '--data', path.join(dir, 'namespaces', 'w3')], { cwd })).code, 1);
  t.equal(fs.readFileSync(journal, 'utf8'), lines.join('\n'), 'a check changes nothing');

  const repair = await runPayemu(t, ['doctor', '--data', dir, '--repair'], { cwd });
  t.equal(repair.code, 0, repair.stdout + repair.stderr);
  t.match(repair.stdout, '  namespace w3 (');
  t.match(repair.stdout, '    set aside: journal-000001.ndjson -> journal-000001.ndjson.damaged-1');
  t.ok(fs.existsSync(`${journal}.damaged-1`), "the damaged file is kept beside it, in w3's directory");
  t.notOk(fs.existsSync(path.join(dir, 'payemu.lock')), 'the repair released the lock');

  const second = await start(t, dir, cwd);
  const w3 = client(second.url, `${KEY}~w3`);
  t.equal((await w3.get('/v1/payments/w3-1')).status, 200, "w3's readable records are kept");
  t.equal((await client(second.url, `${KEY}~w4`).get('/v1/payments/w4-1')).status, 200, 'w4 untouched');
  t.same(await second.proc.stop(), { code: 0, signal: null });
});

t.test('reset --data DIR with no payemu on it: the default only, the named namespaces kept; --all-namespaces deletes all of DIR', async (t) => {
  const { dir, cwd } = dataDir(t);
  const first = await start(t, dir, cwd);
  await payIn(client(first.url, KEY), 'd-1');
  await payIn(client(first.url, `${KEY}~w1`), 'w1-1');
  await payIn(client(first.url, `${KEY}~w2`), 'w2-1');
  t.same(await first.proc.stop(), { code: 0, signal: null });

  const res = await runPayemu(t, ['reset', '--data', dir, '--json'], { cwd });
  t.equal(res.code, 0, res.stderr);
  t.same(JSON.parse(res.stdout), { deleted: dir, kept_namespaces: ['w1', 'w2'] });
  t.same(fs.readdirSync(dir), ['namespaces'], "the default's files are gone, the lock released");

  const second = await start(t, dir, cwd);
  t.equal((await client(second.url, KEY).get('/v1/payments')).body.data.length, 0, 'the default starts empty');
  t.equal((await client(second.url, `${KEY}~w1`).get('/v1/payments/w1-1')).status, 200, "w1's payment is there");
  t.same(await second.proc.stop(), { code: 0, signal: null });

  const plain = await runPayemu(t, ['reset', '--data', dir], { cwd });
  t.equal(plain.code, 0);
  t.equal(plain.stdout.trim(), `deleted the default namespace's data in ${dir}; kept the named namespaces w1, w2 (--all-namespaces deletes them too)`);
  const all = await runPayemu(t, ['reset', '--data', dir, '--all-namespaces', '--json'], { cwd });
  t.equal(all.code, 0, `a directory holding named namespaces only is still a data directory: ${all.stderr}`);
  t.same(JSON.parse(all.stdout), { deleted: dir });
  t.notOk(fs.existsSync(dir), 'all of DIR deleted');
});

t.test('reset --data DIR --all-namespaces with a payemu on it: every namespace reset alike, through its URL', async (t) => {
  const { dir, cwd } = dataDir(t);
  const running = await start(t, dir, cwd);
  await payIn(client(running.url, KEY), 'd-1');
  await payIn(client(running.url, `${KEY}~w1`), 'w1-1');
  const res = await runPayemu(t, ['reset', '--data', dir, '--all', '--all-namespaces', '--json'], { cwd });
  t.equal(res.code, 0, res.stderr);
  const answer = JSON.parse(res.stdout);
  t.match(answer, { scope: 'all', url: running.url, namespaces: [{ name: 'w1', scope: 'all' }] });
  t.ok(answer.removed > 0 && answer.namespaces[0].removed > 0, 'records removed in both');
  t.equal((await client(running.url, `${KEY}~w1`).get('/v1/payments')).body.data.length, 0, 'w1 emptied');
  t.equal((await client(running.url, KEY).get('/v1/payments')).body.data.length, 0, 'the default emptied');
  const own = await runPayemu(t, ['reset', '--data', path.join(dir, 'namespaces', 'w1')], { cwd });
  t.equal(own.code, 1, "a namespace's own directory is not deleted under the payemu holding its data directory");
  t.match(
    own.stderr,
    `is namespace w1 of ${dir}, which a running payemu holds (pid ${running.proc.pid}): reset it through that data directory, with --data ${dir} --namespace w1`,
  );
  t.ok(fs.existsSync(path.join(dir, 'namespaces', 'w1')));
  const second = await runPayemu(t, ['start', '--data', path.join(dir, 'namespaces', 'w1'), '--no-ui', '--port', '0'], { cwd });
  t.equal(second.code, 1, 'nor does another payemu start on it');
  t.match(
    second.stderr,
    `payemu: data directory ${path.join(dir, 'namespaces', 'w1')} is in use by another payemu (pid ${running.proc.pid}) at ${running.url}`,
  );
  const usage = await runPayemu(t, ['reset', '--data', dir, '--all-namespaces', '--namespace', 'w1'], { cwd });
  t.equal(usage.code, 2, 'one namespace or all of them, not both');
  t.match(usage.stderr, '--all-namespaces acts in every namespace, and --namespace names one');
  t.same(await running.proc.stop(), { code: 0, signal: null });

  const offline = await runPayemu(t, ['reset', '--data', dir, '--namespace', 'w1', '--json'], { cwd });
  t.equal(offline.code, 0, offline.stderr);
  t.same(JSON.parse(offline.stdout), { deleted: path.join(dir, 'namespaces', 'w1') }, "with no payemu on DIR, the namespace's directory alone is deleted");
  t.same(fs.readdirSync(path.join(dir, 'namespaces')), [], 'renamed aside and removed: nothing left behind');
  t.ok(fs.existsSync(path.join(dir, 'journal-000001.ndjson')), "the default's files stay");
});
