import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import t, { type Test } from 'tap';
import { runPayemu } from './helpers/cli.js';

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

t.test('every command that talks to payemu takes --namespace; start, exec, doctor and verify-handler do not', async (t) => {
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
    'requests',
    'requests clear',
    'fault add',
    'fault list',
    'fault remove',
    'fault clear',
    'reset',
  ];
  const helps = await Promise.all([...takes, 'start', 'exec', 'doctor', 'verify-handler'].map((c) => runPayemu(t, [...c.split(' '), '--help'])));
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
