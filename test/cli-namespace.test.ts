import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import t, { type Test } from 'tap';
import { createClient } from '../src/client/client.js';
import { runPayemu, startPayemu } from './helpers/cli.js';

// --namespace and PAYEMU_NAMESPACE through the built binary: the key each command sends, what
// is refused before any request, and (against a real payemu) that a namespace's reset and clock
// leave the default alone.
t.setTimeout(240_000);

const KEY = 'sk_test_payemu_acme';
const CLOCK = { now: '2026-11-28T12:00:00.000000Z', offset_seconds: 0, frozen: false };

/** A stand-in payemu that answers `GET /_payemu/clock` and records the key of every request. */
async function recorder(t: Test) {
  const keys: string[] = [];
  const server = http.createServer((req, res) => {
    keys.push((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify(CLOCK));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, keys };
}

/** The environment of a command: none of the test runner's PAYEMU_ variables, and these. */
const env = (vars: Record<string, string> = {}) => ({ PAYEMU_URL: undefined, PAYEMU_API_KEY: undefined, PAYEMU_NAMESPACE: undefined, ...vars });

t.test('the key sent carries ~NAME: --namespace, PAYEMU_NAMESPACE, the flag winning, neither', async (t) => {
  const { url, keys } = await recorder(t);
  const cases: [string, string[], Record<string, string>, string][] = [
    ['--namespace', ['--namespace', 'w3'], {}, `${KEY}~w3`],
    ['PAYEMU_NAMESPACE', [], { PAYEMU_NAMESPACE: 'w_4-b' }, `${KEY}~w_4-b`],
    ['the flag wins over the environment', ['--namespace', 'w3'], { PAYEMU_NAMESPACE: 'w4' }, `${KEY}~w3`],
    ['with --key', ['--key', 'sk_test_payemu_globex', '--namespace', 'w3'], {}, 'sk_test_payemu_globex~w3'],
    ['with PAYEMU_API_KEY', [], { PAYEMU_API_KEY: 'sk_test_payemu_globex', PAYEMU_NAMESPACE: 'default' }, 'sk_test_payemu_globex~default'],
    ['neither: the key as it is (the default namespace)', [], {}, KEY],
  ];
  for (const [name, args, vars, key] of cases) {
    const res = await runPayemu(t, ['clock', '--url', url, '--json', ...args], { env: env(vars) });
    t.equal(res.code, 0, `${name}: ${res.stderr}`);
    t.same(JSON.parse(res.stdout), CLOCK, name);
    t.equal(keys.at(-1), key, name);
  }
  t.equal(keys.length, cases.length, 'one request each');
});

t.test('an invalid name, or a key naming a namespace besides: exit 2 saying what a name allows, nothing sent', async (t) => {
  const { url, keys } = await recorder(t);
  const cases: [string, string[], Record<string, string>, RegExp][] = [
    [
      'an upper-case --namespace',
      ['clock', '--namespace', 'W3'],
      {},
      /^payemu: option '--namespace <name>' argument 'W3' is invalid\. must be a namespace name: 1 to 32 characters of a-z, 0-9, _ and -, such as w3\. See `payemu clock show --help`\.\n$/,
    ],
    ['a --namespace too long', ['events', '--namespace', 'x'.repeat(33)], {}, /argument 'x{33}' is invalid\. must be a namespace name/],
    ['an empty --namespace', ['reset', '--namespace', ''], {}, /argument '' is invalid/],
    ['a --namespace with ~', ['fault', 'list', '--namespace', 'a~b'], {}, /See `payemu fault list --help`/],
    [
      'a bad PAYEMU_NAMESPACE',
      ['clock', 'advance', '1d'],
      { PAYEMU_NAMESPACE: 'w 3' },
      /^payemu: PAYEMU_NAMESPACE: not a namespace name: "w 3" \(a namespace name is/,
    ],
    ['an empty PAYEMU_NAMESPACE', ['requests'], { PAYEMU_NAMESPACE: '' }, /^payemu: PAYEMU_NAMESPACE: not a namespace name: ""/],
    [
      '--key with a suffix and --namespace',
      ['clock', '--key', `${KEY}~w1`, '--namespace', 'w2'],
      {},
      /^payemu: --key names namespace "w1" already \(its ~w1 suffix\) and --namespace names "w2": give the namespace once/,
    ],
    [
      'PAYEMU_API_KEY with a suffix and PAYEMU_NAMESPACE, even the same name',
      ['trigger', 'payment.completed'],
      { PAYEMU_API_KEY: `${KEY}~w1`, PAYEMU_NAMESPACE: 'w1' },
      /^payemu: PAYEMU_API_KEY names namespace "w1" already .* and PAYEMU_NAMESPACE names "w1"/,
    ],
    [
      'reset --data with a bad PAYEMU_NAMESPACE',
      ['reset', '--data', t.testdir()],
      { PAYEMU_NAMESPACE: 'Nope' },
      /^payemu: PAYEMU_NAMESPACE: not a namespace name/,
    ],
  ];
  for (const [name, args, vars, line] of cases) {
    const res = await runPayemu(t, [...args, '--url', url], { env: env(vars) });
    t.equal(res.code, 2, `${name}: ${res.stderr}`);
    t.match(res.stderr, line, name);
    if (!/names namespace/.test(res.stderr)) t.match(res.stderr, /1 to 32 characters of a-z, 0-9, _ and -/, `${name}: says what a name allows`);
    t.equal(res.stdout, '', name);
  }
  t.same(keys, [], 'no request reached payemu');
});

t.test('a key with a suffix alone is sent as it is: the emulator judges it', async (t) => {
  const { url, keys } = await recorder(t);
  const res = await runPayemu(t, ['clock', '--url', url, '--key', `${KEY}~w9`], { env: env() });
  t.equal(res.code, 0, res.stderr);
  t.same(keys, [`${KEY}~w9`]);
});

t.test('every command that talks to payemu takes --namespace; those about namespaces, start, exec, doctor and verify-handler do not', async (t) => {
  const takes = [
    'trigger',
    'clock show',
    'clock advance',
    'pay',
    'events',
    'events resend',
    'outcome add',
    'outcome list',
    'outcome clear',
    'export',
    'import',
    'webhook-chaos show',
    'webhook-chaos set',
    'webhook-chaos clear',
    'webhook show',
    'webhook set',
    'webhook clear',
    'requests',
    'requests clear',
    'fault add',
    'fault list',
    'fault remove',
    'fault clear',
    'reset',
  ];
  const helps = await Promise.all(
    [...takes, 'namespaces', 'namespaces delete', 'start', 'exec', 'doctor', 'verify-handler'].map((c) => runPayemu(t, [...c.split(' '), '--help'])),
  );
  for (const [i, command] of takes.entries()) {
    t.match(helps[i]!.stdout, /--namespace <name> +act in this namespace/, `${command} takes --namespace`);
    t.match(helps[i]!.stdout, /PAYEMU_NAMESPACE/, `${command}'s help names PAYEMU_NAMESPACE`);
  }
  for (const help of helps.slice(takes.length)) t.notMatch(help.stdout, /--namespace/);
});

t.test('payemu exec passes PAYEMU_NAMESPACE on to its command untouched', async (t) => {
  const print = ['exec', '--', process.execPath, '-e', 'process.stdout.write((process.env.PAYEMU_NAMESPACE ?? "(unset)") + " " + process.env.PAYEMU_API_KEY)'];
  const set = await runPayemu(t, print, { env: env({ PAYEMU_NAMESPACE: 'w7' }), cwd: t.testdir() });
  t.equal(set.code, 0, set.stderr);
  t.equal(set.stdout, `w7 ${KEY}`, 'the name as given, the key without a suffix');
  const unset = await runPayemu(t, print, { env: env(), cwd: t.testdir() });
  t.equal(unset.stdout, `(unset) ${KEY}`, 'none set: none made up');
});

t.test('payemu reset --data DIR with a namespace and no payemu holding DIR deletes that namespace only', async (t) => {
  const dir = t.testdir({
    'snapshot.json': '{}',
    namespaces: { w1: { 'snapshot.json': '{}' }, w2: { 'snapshot.json': '{}' } },
  });
  const res = await runPayemu(t, ['reset', '--data', dir, '--namespace', 'w1'], { env: env() });
  t.equal(res.code, 0, res.stderr);
  t.equal(res.stdout, `deleted ${path.join(dir, 'namespaces', 'w1')}`);
  t.notOk(fs.existsSync(path.join(dir, 'namespaces', 'w1')));
  t.ok(fs.existsSync(path.join(dir, 'namespaces', 'w2')), 'another namespace stays');
  t.ok(fs.existsSync(path.join(dir, 'snapshot.json')), 'the default stays');
  t.notOk(fs.existsSync(path.join(dir, 'payemu.lock')), 'the lock taken meanwhile is released');

  const again = await runPayemu(t, ['reset', '--data', dir, '--json'], { env: env({ PAYEMU_NAMESPACE: 'w1' }) });
  t.equal(again.code, 0, again.stderr);
  t.same(JSON.parse(again.stdout), { deleted: null }, 'gone already: nothing to do');
  t.ok(fs.existsSync(path.join(dir, 'snapshot.json')));
});

t.test('against payemu: a namespace clock advance and reset leave the default as it was; payemu namespaces lists and deletes', async (t) => {
  const cwd = t.testdir();
  const { url } = await startPayemu(t, ['--in-memory', '--no-ui', '--freeze-clock', '--clock-start', '2030-01-01T00:00:00Z'], { cwd });
  const at = (vars: Record<string, string> = {}) => ({ cwd, env: env({ PAYEMU_URL: url, ...vars }) });
  const root = createClient({ url, key: KEY });
  const w1 = createClient({ url, key: `${KEY}~w1` });
  const made = (await root.call('POST', '/v1/sessions', { amount: 5, reference: 'kept' })).data;
  const inW1 = (await w1.call('POST', '/v1/sessions', { amount: 7, reference: 'w1-order' })).data;

  const advanced = await runPayemu(t, ['clock', 'advance', '30d', '--namespace', 'w1', '--json'], at());
  t.equal(advanced.code, 0, advanced.stderr);
  t.match(JSON.parse(advanced.stdout), { now: '2030-01-31T00:00:00.000000Z' });
  const fromEnv = await runPayemu(t, ['clock', '--json'], at({ PAYEMU_NAMESPACE: 'w1' }));
  t.match(JSON.parse(fromEnv.stdout), { now: '2030-01-31T00:00:00.000000Z', frozen: true }, 'PAYEMU_NAMESPACE reads the same clock');
  const rootClock = await runPayemu(t, ['clock', '--json'], at());
  t.match(JSON.parse(rootClock.stdout), { now: '2030-01-01T00:00:00.000000Z' }, "the default's clock did not move");
  const flagWins = await runPayemu(t, ['clock', '--json', '--namespace', 'w2'], at({ PAYEMU_NAMESPACE: 'w1' }));
  t.match(JSON.parse(flagWins.stdout), { now: '2030-01-01T00:00:00.000000Z' }, "the flag wins: w2, new, starts at the default's time");

  const reset = await runPayemu(t, ['reset', '--json'], at({ PAYEMU_NAMESPACE: 'w1' }));
  t.equal(reset.code, 0, reset.stderr);
  t.match(JSON.parse(reset.stdout), { scope: { source: 'acme', mode: 'test' }, url, namespace: 'w1' });
  t.ok(JSON.parse(reset.stdout).removed > 0, 'w1 had records');
  t.equal((await w1.request('GET', `/v1/sessions/${inW1.id}`)).status, 404, "w1's session is gone");
  t.equal((await root.request('GET', `/v1/sessions/${made.id}`)).status, 200, "the default's session is kept");
  const human = await runPayemu(t, ['reset', '--namespace', 'w1'], at());
  t.equal(human.stdout, `reset acme/test of namespace w1: 0 records removed (${url})`);

  const listed = await runPayemu(t, ['namespaces', '--json'], at({ PAYEMU_NAMESPACE: 'w9' }));
  t.equal(listed.code, 0, listed.stderr);
  const list = JSON.parse(listed.stdout) as { name: string; clock: { now: string }; counts: Record<string, number> }[];
  t.same(
    list.map((n) => [n.name, n.clock.now]),
    [
      ['w1', '2030-01-31T00:00:00.000000Z'],
      ['w2', '2030-01-01T00:00:00.000000Z'],
    ],
    'by name, the default not listed, and not w9: PAYEMU_NAMESPACE plays no part',
  );
  await w1.call('POST', '/v1/sessions', { amount: 7, reference: 'w1-again' });
  const table = await runPayemu(t, ['namespaces'], at());
  const rows = table.stdout.split('\n');
  t.match(rows[0], /^NAME {2}CREATED {14}CLOCK {2,}RECORDS$/);
  t.match(rows[1], /^w1 {4}2030-01-01 00:00:00 {2}2030-01-31 00:00:00 \(offset \d+ s, frozen\) {2,}.*sessions 1/);
  t.match(rows[2], /^w2 {4}2030-01-01 00:00:00 {2}2030-01-01 00:00:00 \(offset \d+ s, frozen\) {2,}none$/);
  const records = rows[0]!.indexOf('RECORDS');
  t.same([rows[1]![records - 1], rows[2]![records - 1]], [' ', ' '], 'the records column lines up under its header');
  t.not(rows[1]![records], ' ');
  t.not(rows[2]![records], ' ');

  const deleted = await runPayemu(t, ['namespaces', 'delete', 'w1'], at());
  t.equal(deleted.code, 0, deleted.stderr);
  t.equal(deleted.stdout, 'deleted namespace w1');
  const unknown = await runPayemu(t, ['namespaces', 'delete', 'w1'], at());
  t.equal(unknown.code, 1);
  t.match(unknown.stderr, /^payemu: 404: /);
  await runPayemu(t, ['namespaces', 'delete', 'w2', '--json'], at());
  const none = await runPayemu(t, ['namespaces'], at());
  t.match(none.stdout, /^no namespaces yet/);
  const noFlag = await runPayemu(t, ['namespaces', '--namespace', 'w1'], at());
  t.equal(noFlag.code, 2, 'namespaces takes no --namespace');
});

t.test("payemu pay: a namespace's checkout URL pays in that namespace; --namespace naming another is exit 2", async (t) => {
  const cwd = t.testdir();
  const { url } = await startPayemu(t, ['--in-memory', '--no-ui'], { cwd });
  const w1 = createClient({ url, key: `${KEY}~w1` });
  const session = (await w1.call('POST', '/v1/sessions', { amount: 12, reference: 'w1-pay' })).data;
  const checkout: string = session.attributes.checkout_url;
  t.match(checkout, `${url}/~w1/checkout/${session.id}`);

  const other = await runPayemu(t, ['pay', checkout, '--namespace', 'w2'], { cwd, env: env() });
  t.equal(other.code, 2, other.stderr);
  t.match(other.stderr, /^payemu: .* is a page of namespace w1, not of --namespace w2/);

  const paid = await runPayemu(t, ['pay', checkout], { cwd, env: env({ PAYEMU_NAMESPACE: 'w2' }) });
  t.equal(paid.code, 0, `the URL's namespace wins over PAYEMU_NAMESPACE: ${paid.stderr}`);
  t.match(paid.stdout, /^PAID 12\.00 USD reference w1-pay \(payment 1\)/);
  const byId = await runPayemu(t, ['pay', session.id, '--json'], { cwd, env: env({ PAYEMU_URL: url, PAYEMU_NAMESPACE: 'w1' }) });
  t.equal(byId.code, 1, 'an id in the namespace: already paid, refused by payemu');
  t.match(byId.stderr, /^payemu: 4\d\d: /);
});

t.test('against payemu: trigger, events, fault, requests, webhook-chaos and outcome act in the namespace named, not in the default', async (t) => {
  const cwd = t.testdir();
  const { url } = await startPayemu(t, ['--in-memory', '--no-ui'], { cwd });
  const at = (vars: Record<string, string> = {}) => ({ cwd, env: env({ PAYEMU_URL: url, ...vars }) });
  const inW1 = (args: string[]) => runPayemu(t, [...args, '--namespace', 'w1'], at());
  const inDefault = (args: string[]) => runPayemu(t, args, at());
  const json = (res: { code: number | null; stdout: string; stderr: string }) => {
    t.equal(res.code, 0, res.stderr);
    return JSON.parse(res.stdout);
  };

  t.match(json(await inW1(['trigger', 'payment.completed', '--json'])), { event: 'payment.completed' });
  t.ok(json(await inW1(['events', '--json'])).length > 0, "w1's events");
  t.same(json(await inDefault(['events', '--json'])), [], 'none in the default');

  t.match(json(await inW1(['fault', 'add', '--path', '/v1/me', '--status', '503', '--json'])), { path: '/v1/me', status: 503 });
  t.equal((await createClient({ url, key: `${KEY}~w1` }).request('GET', '/v1/me')).status, 503, "w1's fault acts in w1");
  t.equal((await createClient({ url, key: KEY }).request('GET', '/v1/me')).status, 200, 'not in the default');
  t.equal(json(await inW1(['fault', 'list', '--json'])).length, 1);
  t.same(json(await inDefault(['fault', 'list', '--json'])), []);
  t.match(json(await inW1(['requests', '--json', '--path', '/v1/me'])), { total: 1, requests: [{ status: 503 }] });
  t.match(json(await inDefault(['requests', '--json', '--path', '/v1/me'])), { total: 1, requests: [{ status: 200 }] });

  t.same(json(await inW1(['webhook-chaos', 'set', 'duplicate=0.5', '--json'])), { duplicate: 0.5 });
  t.same(json(await inDefault(['webhook-chaos', '--json'])), {}, "the default's chaos is off");
  json(await inW1(['outcome', 'add', '--reference', 'r1', '--sequence', 'card_declined', '--json']));
  t.equal(json(await inW1(['outcome', 'list', '--json'])).outcomes.length, 1);
  t.same(json(await inDefault(['outcome', 'list', '--json'])), { outcomes: [] });
});

t.test('payemu reset --data DIR --namespace NAME with a payemu holding DIR resets that namespace through it', async (t) => {
  const cwd = t.testdir();
  const data = `${cwd}/data`;
  const { url } = await startPayemu(t, ['--data', data, '--no-ui'], { cwd });
  const w1 = createClient({ url, key: `${KEY}~w1` });
  const root = createClient({ url, key: KEY });
  const inW1 = (await w1.call('POST', '/v1/sessions', { amount: 3, reference: 'w1-held' })).data;
  const kept = (await root.call('POST', '/v1/sessions', { amount: 3, reference: 'root-held' })).data;

  const res = await runPayemu(t, ['reset', '--data', data, '--namespace', 'w1', '--json'], { cwd, env: env({ PAYEMU_URL: 'http://127.0.0.1:9' }) });
  t.equal(res.code, 0, res.stderr);
  t.match(JSON.parse(res.stdout), { url, namespace: 'w1', scope: { source: 'acme', mode: 'test' } });
  t.equal((await w1.request('GET', `/v1/sessions/${inW1.id}`)).status, 404, "w1's session is gone");
  t.equal((await root.request('GET', `/v1/sessions/${kept.id}`)).status, 200, "the default's is kept");
  t.ok(fs.existsSync(path.join(data, 'namespaces', 'w1')), "w1's directory stays: it was reset, not deleted");
});
