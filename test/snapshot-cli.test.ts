import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { createClient } from '../src/client/client.js';
import { runPayemu, startPayemu } from './helpers/cli.js';
import { emulator, pay } from './helpers/emulator.js';

t.test('payemu export --out, import, start --import and --export-on-exit carry the state between emulators', async (t) => {
  const dir = t.testdir();
  const exitFile = path.join(dir, 'on-exit.json');
  const first = await startPayemu(t, ['--in-memory', '--no-ui', '--clock-start', '2027-03-01T10:00:00Z', '--freeze-clock', '--export-on-exit', exitFile]);
  const env = { PAYEMU_URL: first.url };
  const api = createClient({ url: first.url, key: 'sk_test_payemu_acme' });
  const session = await api.call('POST', '/v1/sessions', { amount: 7, reference: 'cli-snap' });
  await api.completeSession(session.data.id, { card_number: '4242424242424242' });
  await api.advanceClock({ by: '2d' });

  const out = path.join(dir, 'all.json');
  const exported = await runPayemu(t, ['export', '--all', '--out', out], { env });
  t.equal(exported.code, 0, exported.stderr);
  const snapshot = JSON.parse(fs.readFileSync(out, 'utf8'));
  // Counted from the bytes as they arrived (the document is never held whole): the file's records.
  const records = Object.values(snapshot.data as Record<string, unknown[]>).reduce((sum, list) => sum + list.length, 0);
  t.ok(records > 3, `${records} records`);
  t.match(exported.stdout, new RegExp(`^exported everything: ${records} records to .*all\\.json$`, 'm'));
  t.equal(snapshot.scope, 'all');
  t.equal(snapshot.clock.now, '2027-03-03T10:00:00.000000Z');

  const toStdout = await runPayemu(t, ['export'], { env });
  t.same(JSON.parse(toStdout.stdout).scope, { source: 'acme', mode: 'test' }, 'without --out: the JSON on stdout');

  await api.reset({ all: true });
  t.equal((await api.request('GET', '/v1/payments/cli-snap')).status, 404);
  const imported = await runPayemu(t, ['import', out, '--json'], { env });
  t.equal(imported.code, 0, imported.stderr);
  t.match(JSON.parse(imported.stdout), { scope: 'all', now: '2027-03-03T10:00:00.000000Z' });
  t.equal((await api.call('GET', '/v1/payments/cli-snap')).data.attributes.status, 'PAID');

  const broken = path.join(dir, 'broken.json');
  fs.writeFileSync(broken, JSON.stringify({ ...snapshot, payemu_snapshot: 2 }));
  const refused = await runPayemu(t, ['import', broken], { env });
  t.equal(refused.code, 1);
  t.match(refused.stderr, /format 2, written by a later payemu/);
  const notJson = await runPayemu(t, ['import', path.join(dir, 'missing.json')], { env });
  t.equal(notJson.code, 2);
  t.match(notJson.stderr, /cannot read/);

  t.equal((await first.proc.stop('SIGTERM')).code, 0);
  const onExit = JSON.parse(fs.readFileSync(exitFile, 'utf8'));
  t.equal(onExit.scope, 'all', '--export-on-exit wrote everything on SIGTERM');
  t.ok(onExit.data.payments.some((p: { reference: string }) => p.reference === 'cli-snap'));

  const second = await startPayemu(t, ['--in-memory', '--no-ui', '--freeze-clock', '--import', exitFile]);
  const again = createClient({ url: second.url, key: 'sk_test_payemu_acme' });
  t.equal((await again.call('GET', '/v1/payments/cli-snap')).data.attributes.status, 'PAID', 'start --import');
  t.equal((await again.clock()).now, '2027-03-03T10:00:00.000000Z');
  await second.proc.stop();

  const bad = await runPayemu(t, ['start', '--in-memory', '--no-ui', '--port', '0', '--import', broken]);
  t.equal(bad.code, 2, 'a bad --import is a usage error');
  t.match(bad.stderr, /--import: .*format 2/);
});

t.test('export --out into a folder that is not there, import of a file that is not there or not JSON: exit 2, before any request', async (t) => {
  const dir = t.testdir({ 'notes.txt': 'not json' });
  const env = { PAYEMU_URL: 'http://127.0.0.1:9' };
  const cases: [string[], RegExp][] = [
    [['export', '--out', path.join(dir, 'missing', 'all.json')], /^payemu: cannot write .*all\.json: ENOENT/],
    [['import', path.join(dir, 'missing.json')], /^payemu: cannot read .*missing\.json: ENOENT/],
    [['import', path.join(dir, 'notes.txt')], /^payemu: .*notes\.txt is not a snapshot \(not JSON/],
  ];
  for (const [args, line] of cases) {
    const res = await runPayemu(t, args, { env });
    t.equal(res.code, 2, `${args[0]}: not 3, nothing was asked of the URL`);
    t.match(res.stderr, line);
  }
});

t.test("payemu import sends the file as it is: one that starts as a snapshot but is cut short is the emulator's 400, exit 1, nothing changed", async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 5, reference: 'kept' });
  const text = JSON.stringify(e.snapshot.export({ all: true }));
  const dir = t.testdir();
  const env = { PAYEMU_URL: e.url };
  fs.writeFileSync(path.join(dir, 'cut.json'), text.slice(0, -20));
  const cut = await runPayemu(t, ['import', path.join(dir, 'cut.json')], { env });
  t.equal(cut.code, 1, 'refused by the emulator, not before the request');
  t.match(cut.stderr, /not valid JSON/);
  t.equal((await e.api.get('/v1/payments/kept')).status, 200, 'nothing changed');
  // Laid out by hand (white space in its head): still read without a parse of the whole, and imported.
  const spacedText = text.replace('{"payemu_snapshot":1,"scope":"all",', '{ "payemu_snapshot" : 1,\n  "scope": "all" ,');
  t.not(spacedText, text, 'the head laid out by hand');
  fs.writeFileSync(path.join(dir, 'spaced.json'), spacedText);
  await e.api.post('/_payemu/reset', { all: true });
  const spaced = await runPayemu(t, ['import', path.join(dir, 'spaced.json')], { env });
  t.equal(spaced.code, 0, spaced.stderr);
  t.match(spaced.stdout, /^imported \d+ records into everything/);
  t.equal((await e.api.get('/v1/payments/kept')).status, 200, 'the payment back');
});

t.test('payemu outcome add / list / clear', async (t) => {
  const e = await emulator(t);
  const env = { PAYEMU_URL: e.url };
  const { completed } = await pay(e, { amount: 1, save_payment_method: true });
  const pm = completed.body.payment.payment_method;
  const added = await runPayemu(t, ['outcome', 'add', '--payment-method', pm, '--sequence', 'approved,insufficient_funds'], { env });
  t.equal(added.code, 0, added.stderr);
  t.match(added.stdout, new RegExp(`scripted out_\\w+  card ${pm}: approved, insufficient_funds  \\(2 left\\)`));
  const listed = await runPayemu(t, ['outcome', 'list', '--json'], { env });
  t.match(JSON.parse(listed.stdout), { outcomes: [{ payment_method: pm, sequence: ['approved', 'insufficient_funds'], remaining: 2 }] });
  const wrong = await runPayemu(t, ['outcome', 'add', '--reference', 'r', '--sequence', 'approved,stolen'], { env });
  t.equal(wrong.code, 2, 'an outcome that is none is a usage error');
  t.match(
    wrong.stderr,
    /^payemu: option '--sequence <list>' argument 'approved,stolen' is invalid\. must be outcomes separated by commas, each one of approved, insufficient_funds, .* \(not stolen\)\. See `payemu outcome add --help`\.\n$/,
  );
  const nobody = await runPayemu(t, ['outcome', 'add', '--url', 'http://127.0.0.1:9', '--reference', 'r', '--sequence', 'stolen']);
  t.equal(nobody.code, 2, 'before any request: the same with nothing listening');
  const two = await runPayemu(t, ['outcome', 'add', '--reference', 'r', '--schedule', 's', '--sequence', 'approved'], { env });
  t.equal(two.code, 2);
  const cleared = await runPayemu(t, ['outcome', 'clear'], { env });
  t.match(cleared.stdout, /removed 1 scripted outcome$/m);
  t.same(e.outcomes.list(), []);
});

t.test('payemu import says which payments it gave new ids because another scope uses theirs', async (t) => {
  const from = await emulator(t);
  await pay(from, { amount: 5, reference: 'cli-from' });
  const file = path.join(t.testdir(), 'acme-test.json');
  fs.writeFileSync(file, JSON.stringify(from.snapshot.export()));
  const to = await emulator(t);
  await pay(to, { amount: 4, reference: 'globex-first' }, '4242424242424242', to.globex); // payment 1 is globex's here
  const imported = await runPayemu(t, ['import', file], { env: { PAYEMU_URL: to.url } });
  t.equal(imported.code, 0, imported.stderr);
  t.match(
    imported.stdout,
    /imported \d+ records into acme\/test \(0 removed first; 1 payment renumbered, as another Source or mode uses their ids \(--json: which\)\)/,
  );
  t.equal((await to.globex.get('/v1/payments/globex-first')).body.data.id, '1', "globex's payment keeps its id");
  t.equal((await to.api.get('/v1/payments/cli-from')).body.data.id, '2', "acme's is written as payment 2");
});
