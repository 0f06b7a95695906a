import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import YAML from 'yaml';
import { startPayemu } from '../helpers/cli.js';
import { emulator } from '../helpers/emulator.js';
import { codeBlocks, freePort, project, ROOT, sh, shellCommands } from '../helpers/doc-blocks.js';

/**
 * README.md, run as a reader runs it: every code block, in order, as written, except where
 * payemu or the reader's app listens (a free port instead of 4242 and 3000) and the `cs_...`
 * the page marks as a placeholder. A block added to the page without a step here fails the first
 * test.
 */
const PAGE = path.join(ROOT, 'README.md');
const blocks = codeBlocks(PAGE);

t.test('the page has the blocks this test runs, in this order', async (t) => {
  t.same(
    blocks.map((b) => b.lang),
    ['sh', 'sh', '', 'sh', 'sh', 'yaml', 'js'],
  );
  // The install itself is .ci/check-pack's (the packed tarball in an empty project).
  t.same(shellCommands(blocks[0]!), ['npm install --save-dev payemu']);
});

t.test('npx payemu start: the banner and a request line are the sample, then the curl session runs', async (t) => {
  const cwd = project(t);
  const [start] = shellCommands(blocks[1]!);
  t.equal(start, 'npx payemu start --webhook-url http://127.0.0.1:3000/webhooks');
  // The start as written, on a free port and without the live view (the test is not a terminal);
  // the store is .payemu in the working directory, as the page says.
  const app = await freePort();
  const { proc, url, port } = await startPayemu(t, ['--no-ui', '--webhook-url', `http://127.0.0.1:${app}/webhooks`], { cwd });
  const normalize = (line: string) =>
    line
      .replaceAll(`:${port}`, ':4242')
      .replaceAll(`:${app}/`, ':3000/')
      .replace(fs.realpathSync(cwd), '/path/to')
      .replace(cwd, '/path/to')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z/, 'TIMESTAMP')
      .replace(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d /, 'TIME ')
      .replace(/ \d+\.\dms /, ' Nms ');
  const sample = blocks[2]!.text.trimEnd().split('\n').map(normalize);
  const banner = [proc.lines[0]!];
  while (banner.length < sample.length - 1) banner.push(await proc.nextLine());
  t.same(banner.map(normalize), sample.slice(0, -1), 'the banner, line for line');
  t.ok(fs.existsSync(path.join(cwd, '.payemu')), 'data lives in .payemu/ in the working directory');

  // The curl session, in order, against this emulator: `KEY=...` holds for every line after it.
  const [key, create, pay, read, advance, ...rest] = shellCommands(blocks[3]!);
  t.same(rest, []);
  t.equal(key, `KEY='Authorization: Bearer sk_test_payemu_acme'`);
  const run = (command: string) => sh(`${key}\n${command.replaceAll('http://127.0.0.1:4242', url)}`, cwd, { PAYEMU_URL: url });
  const created = run(create!);
  t.equal(created.code, 0, created.stderr);
  const session = JSON.parse(created.stdout) as { data: { id: string; attributes: { checkout_url: string } } };
  t.match(session.data.id, /^cs_/);
  t.match(session.data.attributes.checkout_url, `${url}/checkout/${session.data.id}`);
  t.equal(normalize(await proc.waitForLine(/POST \/v1\/sessions/)), sample.at(-1), 'the request line is the sample');

  t.equal(pay, 'npx payemu pay cs_...');
  const paid = run(pay!.replace('cs_...', session.data.id));
  t.equal(paid.code, 0, paid.stderr);
  const payment = JSON.parse(run(read!).stdout) as { data: { attributes: { status: string; amount: string; reference: string } } };
  t.match(payment.data.attributes, { status: 'PAID', amount: '25.00', reference: 'order-1001' });

  t.equal(advance, 'npx payemu clock advance 30d');
  const advanced = run(advance!);
  t.equal(advanced.code, 0, advanced.stderr);

  // "A restart continues where it stopped": the payment is there after a stop and a start.
  await proc.stop();
  const again = await startPayemu(t, ['--no-ui'], { cwd });
  const kept = sh(`${key}\n${read!.replaceAll('http://127.0.0.1:4242', again.url)}`, cwd);
  t.match(JSON.parse(kept.stdout), { data: { attributes: { status: 'PAID' } } });
  // "`npx payemu reset --all` empties a running payemu".
  const reset = sh('npx payemu reset --all', cwd, { PAYEMU_URL: again.url });
  t.equal(reset.code, 0, reset.stderr);
  const gone = sh(`${key}\n${read!.replaceAll('http://127.0.0.1:4242', again.url)}`, cwd);
  t.match(JSON.parse(gone.stdout), { errors: [{ status: '404' }] }, 'the payment is gone');
  await again.proc.stop();
});

t.test('npx payemu exec -- npm test: the variables of the table, and the command exit code', async (t) => {
  const [exec] = shellCommands(blocks[4]!);
  t.equal(exec, 'npx payemu exec -- npm test');
  // `npm test` is a script that prints the variables the table lists, then exits 7.
  const cwd = project(
    t,
    {
      'show.js': [
        "for (const name of ['PAYEMU_URL', 'PAYEMU_API_KEY', 'PAYEMU_LIVE_API_KEY', 'PAYEMU_WEBHOOK_SECRET']) console.log(name + '=' + process.env[name]);",
        "const res = await fetch(process.env.PAYEMU_URL + '/_payemu/health');",
        "console.log('health=' + res.status);",
        'process.exit(7);',
        '',
      ].join('\n'),
    },
    { test: 'node show.js' },
  );
  const run = sh(exec!, cwd);
  t.equal(run.code, 7, `exits with the command's code\n${run.stderr}`);
  // The page's table of variables, row by row (`<free port>` is any port).
  const rows = [...fs.readFileSync(PAGE, 'utf8').matchAll(/^\| `(PAYEMU_\w+)` \| `([^`]+)`/gm)];
  t.equal(rows.length, 4);
  for (const [, name, value] of rows) {
    const pattern = value!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('<free port>', '\\d+');
    t.match(run.stdout, new RegExp(`^${name}=${pattern}$`, 'm'), `${name} is ${value}`);
  }
  t.match(run.stdout, /^health=200$/m, 'payemu answers while the command runs');
  // "`exec` takes the options of `start` but `--json` and `--no-ui`".
  for (const option of ['--json', '--no-ui']) t.equal(sh(`npx payemu exec ${option} -- true`, cwd).code, 2, `exec ${option} is bad usage`);
});

t.test('In CI: the workflow step runs payemu exec with the command after --', async (t) => {
  // The step is a fragment of a job's `steps:` list: parsed as YAML, it is one step with `run:`.
  const steps = YAML.parse(blocks[5]!.text) as { run: string }[];
  t.equal(steps.length, 1);
  const step = steps[0]!.run;
  t.equal(step, 'npx payemu exec --webhook-url http://127.0.0.1:3000/webhooks --webhook-backoff 0,0,0 -- npm test');
  const app = await freePort();
  const cwd = project(t, { 'ok.js': 'process.exit(process.env.PAYEMU_URL ? 0 : 1);\n' }, { test: 'node ok.js' });
  const run = sh(step.replace(':3000/', `:${app}/`), cwd);
  t.equal(run.code, 0, run.stderr);
});

t.test('As a library: the block runs as written in a module, and does what its comments say', async (t) => {
  const app = await freePort();
  const code = blocks[6]!.text.replace(':3000/', `:${app}/`);
  t.not(code, blocks[6]!.text, 'the block names a webhook URL');
  // What the block leaves behind, printed after it: the answer, the event, the clock advanced.
  const check =
    'const record = payemu.events.get(event_id);\nconsole.log(JSON.stringify({ status: res.status, event: record.event, amount: record.payload.data.amount, attempts: record.attempts.length }));\n';
  const cwd = project(t, { 'readme.js': code + check });
  const run = sh('node readme.js', cwd);
  t.equal(run.code, 0, run.stderr);
  t.match(JSON.parse(run.stdout.trim().split('\n').at(-1)!), { status: 200, event: 'payment.completed', amount: 12.5 });
  t.ok(JSON.parse(run.stdout.trim().split('\n').at(-1)!).attempts >= 1, 'the event was delivered to the webhook URL (refused: nothing listens)');
});

t.test('Keys and test cards: each card of the table does what its row says', async (t) => {
  // Not a code block, but what readers copy most: each number paid through the control plane,
  // as the hosted page pays it (a library payemu, in memory). The 0341 card's later off-session
  // declines are docs/api.md's and test/recurring.test.ts's to show.
  const e = await emulator(t);
  const rows = [...fs.readFileSync(PAGE, 'utf8').matchAll(/^\| ([\d ]{15,19}) \| (.+) \|$/gm)];
  t.equal(rows.length, 9);
  const complete = async (card: string, extra: Record<string, unknown> = {}, as = e.api) => {
    const session = await as.post('/v1/sessions', { amount: 10 });
    return as.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: card, ...extra });
  };
  const failures: Record<string, string> = {
    'insufficient funds': 'insufficient_funds',
    generic: 'card_declined',
    'expired card': 'expired_card',
    'incorrect CVC': 'incorrect_cvc',
  };
  for (const [, card, outcome] of rows) {
    if (outcome!.startsWith('3-D Secure')) {
      t.equal((await complete(card!)).status, 422, `${card}: refused without a challenge result`);
      t.equal((await complete(card!, { three_ds: 'pass' })).body.payment.status, 'PAID', `${card}: passed`);
      t.equal((await complete(card!, { three_ds: 'fail' })).body.payment.status, 'FAILED', `${card}: failed`);
    } else if (outcome!.startsWith('approved')) {
      t.equal((await complete(card!)).body.payment.status, 'PAID', `${card}: ${outcome}`);
      t.equal((await complete(card!, {}, e.live)).body.payment.status, 'FAILED', `${card}: a live key declines it`);
    } else {
      const failure = failures[outcome!.replace('declined, ', '')];
      t.ok(failure, `${outcome} is a failure this test knows`);
      t.match((await complete(card!)).body.payment, { status: 'FAILED', failure_code: failure }, `${card}: ${outcome}`);
    }
  }
  t.match((await complete('4111 1111 1111 1111')).body.payment, { status: 'FAILED', failure_code: 'card_not_supported' }, 'another valid number');
  t.equal((await complete('4111 1111 1111 1111', {}, e.live)).body.payment.status, 'PAID', 'which a live key approves');
  t.equal((await complete('4242 4242 4242 4241')).status, 422, 'a mistyped number is refused');
});

t.test('what the page says of the package: Node version, what ships, every page of docs/ listed', async (t) => {
  const text = fs.readFileSync(PAGE, 'utf8');
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    engines: { node: string };
    files: string[];
    bin: Record<string, string>;
  };
  t.match(text, 'Needs Node.js 20.19 or newer.');
  t.equal(pkg.engines.node, '>=20.19');
  t.ok(pkg.bin.payemu, 'the payemu command');
  for (const folder of ['examples/', 'docs/']) t.ok(pkg.files.includes(folder), `${folder} ships`);
  // The Documentation table: each row's page exists, and each page of docs/ has a row.
  const listed = [...text.matchAll(/^\| \[([^\]]+)\]\(\1\) \|/gm)].map((m) => m[1]!);
  for (const page of listed) t.ok(fs.existsSync(path.join(ROOT, page)), `${page} exists`);
  const pages = fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  t.same(
    pages.filter((page) => !listed.includes(page)),
    [],
    'every page of docs/ is in the table',
  );
});
