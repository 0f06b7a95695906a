import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { startPayemu } from '../helpers/cli.js';
import { type CodeBlock, codeBlocks, project, ROOT, shAsync, shellCommands } from '../helpers/doc-blocks.js';

/**
 * docs/parallel-tests.md, run for real: each recipe's files as the page's blocks give them (a
 * block's first line names its file), in a project folder of their own, run by its runner with
 * three workers under one `payemu exec`, as the page's command says. Beyond the runner's own
 * verdict, payemu's log (`--log`, which this test adds to the command) shows that each worker (a
 * process of its own, which the runner runs beside the others) acted in the namespace its worker
 * id names, none in the default, and that each namespace's first payment is payment 1: in one
 * namespace, the three tests' clocks would move under each other and their payments would be 1,
 * 2 and 3. (That the workers' requests overlapped in time is not asserted: how far apart a
 * runner starts its workers is its own affair, and a short test may end before the next starts.)
 *
 * Jest and Vitest are devDependencies. pytest-xdist (Debian's python3-pytest-xdist, run by
 * /usr/bin/python3: the python3 on PATH may be another without it) and Go (golang-go, the
 * standard library only, nothing downloaded) are installed by .ci/run; on a machine without
 * them their recipe is skipped with the reason, but not in CI, where a missing one fails.
 */
t.setTimeout(300_000);

const PAGE = path.join(ROOT, 'docs/parallel-tests.md');
const blocks = codeBlocks(PAGE);
const CI = process.env.CI === 'true';

t.test('the page has the blocks this test runs, in this order', async (t) => {
  t.same(
    blocks.map((b) => b.lang),
    [
      '', // the key in a header
      ...['js', 'js', 'js', 'js', 'js', 'sh'], // Jest and Vitest
      ...['python', 'python', 'python', 'python', 'sh'], // pytest-xdist
      ...['', 'go', 'go', 'go', 'go', 'sh'], // go test
      'sh', // PAYEMU_NAMESPACE
    ],
  );
  t.equal(blocks[0]!.text, 'Authorization: Bearer sk_test_payemu_acme~w3\n');
});

/** The blocks from `from` up to the next shell block: the files of one recipe, by the name on their first line. */
function recipe(from: number): { files: Record<string, string>; commands: string[] } {
  const files: Record<string, string> = {};
  let i = from;
  for (; blocks[i]!.lang !== 'sh'; i++) {
    const block = blocks[i]!;
    const name = /^(?:\/\/|#) ([\w./-]+\.\w+)(?::|$)/m.exec(block.text.split('\n')[0]!)?.[1];
    if (!name) throw new Error(`the block at line ${block.line} does not name its file`);
    files[name] = block.text;
  }
  return { files, commands: shellCommands(blocks[i] as CodeBlock) };
}

/** A project folder holding `files` (paths with folders too), with payemu installed as npm would. */
function folder(t: Test, files: Record<string, string>, packageJson?: object): string {
  const dir = project(t);
  if (packageJson) fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(packageJson));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/** `payemu exec` as the page writes it, with --log LOG added: what the workers did, read after the run. */
function logged(command: string, log: string): string {
  if (!command.includes('payemu exec -- ')) throw new Error(`not a payemu exec: ${command}`);
  return command.replace('payemu exec -- ', `payemu exec --log ${log} -- `);
}

interface LogLine {
  type: string;
  namespace?: string;
  method?: string;
  path?: string;
  status?: number;
  name?: string;
  data?: { payment_id?: number };
}

/**
 * What payemu's log says of a run: every request was made in one of `namespaces` (each worker's
 * own, all of them used), none in the default; each answered below 300; in each namespace the
 * first payment event is of payment 1.
 */
function checkLog(t: Test, file: string, namespaces: string[]): void {
  const lines = fs
    .readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as LogLine);
  const requests = lines.filter((l) => l.type === 'request');
  t.same([...new Set(requests.map((l) => l.namespace ?? '(default)'))].sort(), [...namespaces].sort(), 'each worker in its own namespace, none in the default');
  t.same(
    requests.filter((l) => l.status! >= 300).map((l) => `${l.method} ${l.path} ${l.status}`),
    [],
    'every request succeeded',
  );
  for (const namespace of namespaces) {
    const first = lines.find((l) => l.type === 'domain' && l.namespace === namespace && l.name!.startsWith('payment.'));
    t.equal(first?.data?.payment_id, 1, `${namespace}: its first payment is payment 1`);
    t.ok(
      requests.some((l) => l.namespace === namespace && l.path === '/_payemu/clock/advance'),
      `${namespace}: advanced its own clock`,
    );
  }
}

/**
 * A page's command in `cwd`, without the coverage hooks tap puts in NODE_OPTIONS of every process
 * a test starts (they are not the reader's, and each runner's workers would load them too).
 */
function shell(command: string, cwd: string, env: NodeJS.ProcessEnv = {}) {
  return shAsync(`unset NODE_OPTIONS\n${command}`, cwd, env);
}

/** Links a devDependency of this checkout into the project, with its command in node_modules/.bin. */
function linkTool(dir: string, name: string): void {
  fs.symlinkSync(path.join(ROOT, 'node_modules', name), path.join(dir, 'node_modules', name));
  fs.symlinkSync(path.join(ROOT, 'node_modules/.bin', name), path.join(dir, 'node_modules/.bin', name));
}

const node = recipe(1);

t.test('Jest and Vitest: one helper and three test files, the helper reads either worker id', async (t) => {
  t.same(Object.keys(node.files), ['payemu.js', 'sessions.test.js', 'billing.test.js', 'authorization.test.js', 'vitest.config.js']);
  t.same(node.commands, [
    'NODE_OPTIONS=--experimental-vm-modules npx payemu exec -- npx jest --maxWorkers=3',
    'npx payemu exec -- npx vitest run --maxWorkers=3',
  ]);
  t.match(node.files['payemu.js'], /process\.env\.JEST_WORKER_ID \?\? process\.env\.VITEST_POOL_ID/);
});

t.test('Jest: three workers, w1 to w3, all tests passed', async (t) => {
  const cwd = folder(t, node.files);
  linkTool(cwd, 'jest');
  // Jest runs a few quick files in one process when an earlier run's timings say they are quick:
  // a cache of this run's own keeps the three workers the page's command asks for.
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-jest-'));
  t.teardown(() => fs.rmSync(cache, { recursive: true, force: true }));
  const run = await shell(`${logged(node.commands[0]!, 'payemu.jsonl')} --cacheDirectory=${cache}`, cwd);
  t.equal(run.code, 0, 'the run passed', { output: run.stdout + run.stderr });
  t.match(run.stderr, /^Tests: +3 passed, 3 total$/m);
  checkLog(t, path.join(cwd, 'payemu.jsonl'), ['w1', 'w2', 'w3']);
});

t.test('Vitest: three workers, w1 to w3, all tests passed', async (t) => {
  const cwd = folder(t, node.files);
  linkTool(cwd, 'vitest');
  const run = await shell(logged(node.commands[1]!, 'payemu.jsonl'), cwd);
  t.equal(run.code, 0, 'the run passed', { output: run.stdout + run.stderr });
  t.match(run.stdout, /^ +Tests +3 passed \(3\)$/m);
  checkLog(t, path.join(cwd, 'payemu.jsonl'), ['w1', 'w2', 'w3']);
});

/** Whether a tool runs here; in CI it must (its test then runs and fails), elsewhere its absence skips. */
function missing(available: boolean, what: string): string | false {
  return available || CI ? false : `${what} is not installed here (.ci/run installs it)`;
}

const PYTHON = '/usr/bin/python3';
const xdist = spawnSync(PYTHON, ['-c', 'import xdist'], { stdio: 'ignore' }).status === 0;
const python = recipe(7);

t.test('pytest-xdist: three workers, gw0 to gw2, all tests passed', { skip: missing(xdist, 'apt-get install python3-pytest-xdist') }, async (t) => {
  t.ok(xdist, `${PYTHON} has pytest-xdist`);
  t.same(Object.keys(python.files), ['conftest.py', 'tests/test_sessions.py', 'tests/test_billing.py', 'tests/test_authorization.py']);
  t.same(python.commands, ['npx payemu exec -- pytest -n 3']);
  const cwd = folder(t, python.files);
  // Debian's pytest, by its Python; no cache or bytecode left in the folder.
  const command = logged(python.commands[0]!, 'payemu.jsonl').replace('-- pytest ', `-- ${PYTHON} -m pytest -p no:cacheprovider `);
  const run = await shell(command, cwd, { PYTHONDONTWRITEBYTECODE: '1' });
  t.equal(run.code, 0, 'the run passed', { output: run.stdout + run.stderr });
  t.match(run.stdout, /^=+ 3 passed in [\d.]+s =+$/m);
  checkLog(t, path.join(cwd, 'payemu.jsonl'), ['gw0', 'gw1', 'gw2']);
});

const go = spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0;
const golang = recipe(12);

t.test(
  'go test: three packages side by side, each in the namespace of its name, all passed',
  { skip: missing(go, 'Go (apt-get install golang-go)') },
  async (t) => {
    t.ok(go, 'go is on PATH');
    t.same(Object.keys(golang.files), [
      'go.mod',
      'payemutest/payemutest.go',
      'sessions/sessions_test.go',
      'billing/billing_test.go',
      'authorization/authorization_test.go',
    ]);
    t.same(golang.commands, ['npx payemu exec -- go test -p 3 -count=1 ./...']);
    const cwd = folder(t, golang.files);
    // The standard library only: nothing to download, no other toolchain, caches in a folder of this run.
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-go-'));
    t.teardown(() => fs.rmSync(cache, { recursive: true, force: true }));
    const env = { GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '', GOWORK: 'off', GOCACHE: path.join(cache, 'build'), GOPATH: path.join(cache, 'path') };
    const gofmt = await shell('gofmt -l .', cwd, env);
    t.equal(gofmt.stdout, '', 'the page’s Go is gofmt’s');
    const run = await shell(logged(golang.commands[0]!, 'payemu.jsonl'), cwd, env);
    t.equal(run.code, 0, 'the run passed', { output: run.stdout + run.stderr });
    for (const pkg of ['authorization', 'billing', 'sessions']) t.match(run.stdout, new RegExp(`^ok\\s+shop/${pkg}\\s`, 'm'), `${pkg} passed`);
    checkLog(t, path.join(cwd, 'payemu.jsonl'), ['authorization', 'billing', 'sessions']);
  },
);

t.test('PAYEMU_NAMESPACE and --namespace: the CLI acts in the worker’s namespace, the default untouched', async (t) => {
  const commands = shellCommands(blocks[18]!);
  t.same(commands, [
    'PAYEMU_NAMESPACE=w2 npx payemu clock advance 30d',
    'PAYEMU_NAMESPACE=w2 npx payemu events --event recurring.charged',
    'npx payemu clock show --namespace w2',
  ]);
  const { url } = await startPayemu(t, ['--in-memory', '--no-ui']);
  const call = async (key: string, method: string, path: string, body?: object) => {
    const res = await fetch(url + path, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    t.ok(res.ok, `${method} ${path}: ${res.status}`);
    return (await res.json()) as Record<string, any>;
  };
  // In w2, a schedule every 30 days, charged once on creation.
  const w2 = 'sk_test_payemu_acme~w2';
  const session = await call(w2, 'POST', '/v1/sessions', { amount: 1, save_payment_method: true });
  const paid = await call(w2, 'POST', `/_payemu/sessions/${session.data.id}/complete`, { card_number: '4242 4242 4242 4242' });
  await call(w2, 'POST', '/v1/recurring-payments', { payment_method: paid.payment.payment_method, amount: 19, frequency: 'daily', interval_count: 30 });

  // As a test under `payemu exec` runs them: PAYEMU_URL and PAYEMU_API_KEY are exec's.
  const cwd = project(t);
  const env = { PAYEMU_URL: url, PAYEMU_API_KEY: 'sk_test_payemu_acme' };
  const advance = await shell(commands[0]!, cwd, env);
  t.equal(advance.code, 0, advance.stderr);
  t.match(advance.stdout, /recurring\.charge: 1/, 'the advance charged w2’s schedule');
  const events = await shell(commands[1]!, cwd, env);
  t.equal(events.code, 0, events.stderr);
  const charges = events.stdout.split('\n').filter((line) => line.includes('recurring.charged'));
  t.equal(charges.length, 2, 'w2’s two charges', { output: events.stdout });
  const show = await shell(commands[2]!, cwd, env);
  t.equal(show.code, 0, show.stderr);

  const mine = await call(w2, 'GET', '/_payemu/clock');
  const theirs = await call('sk_test_payemu_acme', 'GET', '/_payemu/clock');
  t.ok(mine.offset_seconds >= 30 * 86400 - 5, `w2's clock moved 30 days: ${mine.offset_seconds}`);
  t.ok(Math.abs(theirs.offset_seconds) < 5, `the default's did not: ${theirs.offset_seconds}`);
  t.match(show.stdout, mine.now.slice(0, 16), 'clock show --namespace w2 shows w2’s time');
  const defaults = await call('sk_test_payemu_acme', 'GET', '/_payemu/events?event=recurring.charged');
  t.same(defaults.events, [], 'no charge in the default namespace');
});
