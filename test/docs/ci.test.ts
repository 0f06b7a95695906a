import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import YAML from 'yaml';
import { signatureHeader } from '../../src/webhooks/signature.js';
import { waitUntilRefused } from '../helpers/cli.js';
import { codeBlocks, fingerprint, freePort, project, ROOT, sh, shAsync, shellCommands } from '../helpers/doc-blocks.js';

/**
 * docs/ci.md, run as CI runs it: each workflow's `run:` lines that start payemu run against
 * this checkout (a trivial `npm test`; `npm ci`, `pip install` and `npx --yes payemu@0.1`, which
 * fetch from a registry, are this checkout instead), the background start runs on a free port,
 * and the Python suite runs under `payemu exec`. There is no Go toolchain here: the Go suite's
 * text is pinned by a checksum, and it is not run. A block added to the page without a step here
 * fails the first test.
 */
const PAGE = path.join(ROOT, 'docs/ci.md');
const blocks = codeBlocks(PAGE);

interface Step {
  run?: string;
  uses?: string;
  if?: string;
  with?: Record<string, unknown>;
}

/** A `npm test` that passes when payemu answers at PAYEMU_URL and the table's variables are set. */
const PASSING = {
  'check.js': [
    "for (const name of ['PAYEMU_URL', 'PAYEMU_API_KEY', 'PAYEMU_WEBHOOK_SECRET']) if (!process.env[name]) process.exit(10);",
    "const res = await fetch(process.env.PAYEMU_URL + '/v1/me', { headers: { Authorization: 'Bearer ' + process.env.PAYEMU_API_KEY } });",
    'process.exit(res.status === 200 ? Number(process.env.EXIT ?? 0) : 11);',
    '',
  ].join('\n'),
};

t.test('the page has the blocks this test runs, in this order', async (t) => {
  t.same(
    blocks.map((b) => b.lang),
    ['yaml', 'yaml', 'yaml', 'sh', 'python', 'go'],
  );
});

t.test('GitHub Actions: the workflow is valid YAML and its payemu step runs the tests against a fresh payemu', async (t) => {
  const workflow = YAML.parse(blocks[0]!.text) as { on: string[]; jobs: { test: { steps: Step[] } } };
  t.same(workflow.on, ['push', 'pull_request']);
  const runs = workflow.jobs.test.steps.flatMap((s) => (s.run ? [s.run] : []));
  t.same(runs, ['npm ci', 'npx payemu exec --webhook-url http://127.0.0.1:3000/webhooks --webhook-backoff 0,0,0 -- npm test']);
  const app = await freePort();
  const cwd = project(t, PASSING, { test: 'node check.js' });
  const passed = sh(runs[1]!.replace(':3000/', `:${app}/`), cwd);
  t.equal(passed.code, 0, passed.stderr);
  // "the job fails when they fail": exec exits with the tests' code.
  const failed = sh(runs[1]!.replace(':3000/', `:${app}/`), cwd, { EXIT: '1' });
  t.equal(failed.code, 1, failed.stderr);
});

t.test('the log as an artifact: payemu.jsonl holds every request, even when the tests fail', async (t) => {
  const steps = YAML.parse(blocks[1]!.text) as Step[];
  t.equal(steps[0]!.run, 'npx payemu exec --log payemu.jsonl -- npm test');
  t.match(steps[1], { uses: 'actions/upload-artifact@v4', if: 'always()', with: { name: 'payemu-log', path: 'payemu.jsonl' } });
  const cwd = project(t, PASSING, { test: 'node check.js' });
  const run = sh(steps[0]!.run!, cwd, { EXIT: '1' });
  t.equal(run.code, 1, 'a failed run');
  const lines = fs
    .readFileSync(path.join(cwd, 'payemu.jsonl'), 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; path?: string });
  t.equal(lines[0]!.type, 'listening');
  t.ok(
    lines.some((l) => l.type === 'request' && l.path === '/v1/me'),
    'the request is in the log',
  );
  t.equal(lines.at(-1)!.type, 'stopped');
});

t.test('projects that are not Node projects: the Python job runs the suite of this page; the Go job is not run', async (t) => {
  const jobs = YAML.parse(blocks[2]!.text) as { python: { steps: Step[] }; go: { steps: Step[] } };
  const python = jobs.python.steps.flatMap((s) => (s.run ? [s.run] : []));
  t.same(python, ['pip install pytest', 'npx --yes payemu@0.1 exec -- pytest -q']);
  t.same(
    jobs.go.steps.flatMap((s) => (s.run ? [s.run] : [])),
    ['npx --yes payemu@0.1 exec -- go test ./...'],
  );
  t.ok(
    jobs.python.steps.some((s) => s.uses === 'actions/setup-node@v4'),
    'Node, to run payemu',
  );
  // The Python suite below, in tests/ as its first line says, under the job's exec (this
  // checkout's payemu; pytest cannot be installed here, and it runs unittest classes as they are).
  const cwd = project(t, { tests: { 'test_payments.py': blocks[4]!.text } });
  t.match(blocks[4]!.text, /^# tests\/test_payments\.py: /);
  const exec = python[1]!.replace('npx --yes payemu@0.1', 'npx payemu').replace('pytest -q', 'python3 -m unittest discover tests -v');
  const run = await shAsync(exec, cwd);
  t.equal(run.code, 0, run.stderr);
  t.match(run.stderr, /^Ran 3 tests in/m);
  t.match(run.stderr, /^OK$/m);

  // verify_webhook accepts what payemu signs, and refuses a changed body and another secret.
  const body = JSON.stringify({ event: 'payment.completed', data: { amount: 25 } });
  const header = signatureHeader('whsec_payemu_acme', body, Math.floor(Date.now() / 1000));
  const check = (raw: string, secret: string) =>
    sh(
      `python3 -c 'import sys; sys.path.insert(0, "tests"); from test_payments import verify_webhook as v; print(v(sys.argv[1].encode(), sys.argv[2], sys.argv[3]))' '${raw}' '${header}' '${secret}'`,
      cwd,
      { PAYEMU_URL: 'http://127.0.0.1:1', PAYEMU_API_KEY: 'sk_test_payemu_acme' },
    );
  const good = check(body, 'whsec_payemu_acme');
  t.equal(good.code, 0, good.stderr);
  t.match(good.stdout, /'event': 'payment.completed'/);
  t.match(check(body.replace('25', '26'), 'whsec_payemu_acme').stderr, /the signature does not match/);
  t.match(check(body, 'whsec_other').stderr, /the signature does not match/);
});

t.test('the Go suite: its text is pinned (no Go toolchain here, so it is not run)', async (t) => {
  t.match(blocks[5]!.text, /^\/\/ payments_test\.go: run with `npx payemu exec -- go test \.\/\.\.\.`/);
  t.equal(fingerprint(blocks[5]!), '7cdded75ca63', 'the block is the one reviewed; change this checksum with the block');
});

t.test('a background start: the readiness line in payemu.log, the health poll returns', async (t) => {
  const commands = shellCommands(blocks[3]!);
  t.same(commands, [
    'npx payemu start --port 4242 --in-memory --no-ui > payemu.log 2>&1 &',
    'until curl -sf http://127.0.0.1:4242/_payemu/health > /dev/null; do sleep 0.1; done',
  ]);
  const port = await freePort();
  const cwd = project(t);
  // As written on a free port; `echo $!` after them only tells this test whom to stop.
  const run = sh(`${commands.join('\n').replaceAll('4242', String(port))}\necho $!`, cwd);
  t.equal(run.code, 0, run.stderr);
  t.equal(fs.readFileSync(path.join(cwd, 'payemu.log'), 'utf8').split('\n')[0], `payemu listening on http://127.0.0.1:${port}`);
  // SIGTERM to npx (what a CI runner sends) stops payemu too (docs/cli.md, Run through npx).
  process.kill(Number(run.stdout.trim()), 'SIGTERM');
  await waitUntilRefused(port);
});
