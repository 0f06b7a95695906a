import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { startPayemu } from './helpers/cli.js';
import { nodeWithoutCoverage } from './helpers/plain-node.js';

/**
 * A data directory written through the library (dist/, built by tsc) and restarted with
 * `payemu start` (dist/bin/cli.cjs, bundled by esbuild, which prints the same functions
 * otherwise) keeps the index keys and due times beside its snapshot: the command line reads
 * them as its own, so a stop with little journal leaves the snapshot as it was, and writes the
 * same fingerprints (index-keys.ts, `sourceShape`). Before, each such stop rewrote the snapshot
 * whole (44 s for a million payments).
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Checkouts paid, schedules billed: every collection with index keys or due times has records. */
const SEED = `
const { startEmulator } = await import(${JSON.stringify(path.join(ROOT, 'dist/index.js'))});
const payemu = await startEmulator({ inMemory: false, dataDir: process.argv[1], clockStart: '2027-01-01T12:00:00Z', freezeClock: true });
const headers = { authorization: 'Bearer ' + payemu.keys.test, 'content-type': 'application/json' };
const post = async (p, body) => (await fetch(payemu.url + p, { method: 'POST', headers, body: JSON.stringify(body) })).json();
const session = await post('/v1/sessions', { amount: 1, save_payment_method: true });
const card = (await post('/_payemu/sessions/' + session.data.id + '/complete', { card_number: '4242424242424242' })).payment.payment_method;
await post('/v1/sessions', { amount: 5 });
for (let i = 0; i < 100; i++) await post('/v1/recurring-payments', { payment_method: card, amount: 9.99, frequency: 'daily', start_date: '2027-01-02' });
// Past 1 MiB of journal: the clean stop writes the snapshot and index-keys.json.
await payemu.clock.advance('10d');
await payemu.close();
`;

const prints = (dir: string) => {
  const head = JSON.parse(fs.readFileSync(path.join(dir, 'index-keys.json'), 'utf8').split('\n', 1)[0]!) as {
    collections: Record<string, { print: string }>;
  };
  return Object.fromEntries(Object.entries(head.collections).map(([name, { print }]) => [name, print]));
};

t.test('the command line reads the index keys the library kept, and leaves the snapshot alone', async (t) => {
  const dir = t.testdir();
  const [command, args] = nodeWithoutCoverage(['--input-type=module', '-e', SEED, dir]);
  execFileSync(command, args, { stdio: 'pipe' });
  const snapshot = fs.readFileSync(path.join(dir, 'snapshot.json'));
  const written = prints(dir);
  for (const name of ['payments', 'recurring_payments due', 'sessions due']) t.ok(written[name], `${name} kept`);

  const { proc, url } = await startPayemu(t, ['--no-ui', '--data', dir]);
  const created = await fetch(`${url}/v1/sessions`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk_test_payemu_acme', 'content-type': 'application/json' },
    body: '{"amount":10}',
  });
  t.equal(created.status, 201);
  const listed = (await (await fetch(`${url}/v1/recurring-payments?per_page=1`, { headers: { authorization: 'Bearer sk_test_payemu_acme' } })).json()) as {
    meta: { total: number };
  };
  t.equal(listed.meta.total, 100, 'the schedules read back');
  t.equal((await proc.stop()).code, 0);
  t.ok(fs.readFileSync(path.join(dir, 'snapshot.json')).equals(snapshot), 'the snapshot is not written again');
  t.same(prints(dir), written, 'the same fingerprints');
});
