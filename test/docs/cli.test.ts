import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import t, { type Test } from 'tap';
import { verifyWebhook } from '../../src/index.js';
import { spawnPayemu, startPayemu } from '../helpers/cli.js';
import { codeBlocks, freePort, project, ROOT, shAsync, shellCommands } from '../helpers/doc-blocks.js';
import { client } from '../helpers/emulator.js';
import { receiver } from '../helpers/receiver.js';

/**
 * docs/cli.md, run as a reader runs it: every command of every `sh` block, in order, as written,
 * against one emulator (`PAYEMU_URL` says where, as it does for a reader's commands) unless the
 * block starts its own; every output sample produced by its command and compared line for line,
 * column for column, after ids, times and durations are made the page's. What changes: a free
 * port instead of 4242 and 3000, the placeholders the page marks (`cs_Xr8...`, `pm_...`,
 * `5f0c...`, a fault id, payment link 17) replaced by real ones, and `npm test` / `pytest` a
 * trivial command. The shared emulator's clock starts on 2026-11-01 so that the page's
 * `--to 2027-01-01T09:00:00Z` is ahead of it after the page's triggers and `clock advance 30d`.
 */
// About 60 commands of a real payemu, each a process: past tap's 120 s on a loaded 2-core machine.
t.setTimeout(300_000);

const PAGE = path.join(ROOT, 'docs/cli.md');
const blocks = codeBlocks(PAGE);
const KEY = 'sk_test_payemu_acme';

/** A `npm test` that passes when payemu answers at PAYEMU_URL with the first Source's test key. */
const CHECK =
  "const res = await fetch(process.env.PAYEMU_URL + '/v1/me', { headers: { Authorization: 'Bearer ' + process.env.PAYEMU_API_KEY } });\nprocess.exit(res.status === 200 ? 0 : 1);\n";

/** What varies between runs, made the same on both sides: ids, times, durations, numbers of payments. */
function normalize(text: string): string[] {
  return text
    .trimEnd()
    .split('\n')
    .map((line) =>
      line
        .replace(/^\$ /, '')
        .replace(/\b(cs|re|inv|req|flt)_[A-Za-z0-9]{24}\b/g, '$1_ID_ID_ID_ID_ID_ID_ID_ID_')
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID_UUID_UUID_UUID_UUID_UUID_UUID_UU')
        .replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/g, 'YYYY-MM-DD HH:MM:SS')
        .replace(/\bpayment \d+$/, 'payment N'),
    );
}

let url = '';
let cwd = '';
/** A command of the page, run in the reader's project against the shared emulator. */
const run = (command: string, env: NodeJS.ProcessEnv = {}) => shAsync(command, cwd, { PAYEMU_URL: url, ...env });

t.before(async () => {
  // tap's `t.before` has no testdir of its own: the project lives in the file's.
  cwd = project(t);
  ({ url } = await startPayemu(t, ['--in-memory', '--no-ui', '--clock-start', '2026-11-01T00:00:00Z'], { cwd }));
});

t.test('the page has the blocks this test runs, in this order', async (t) => {
  t.same(
    blocks.map((b) => b.lang),
    ['', '', 'sh', 'sh', 'sh', '', 'sh', '', '', 'sh', 'sh', 'sh', '', 'sh', 'sh', 'sh', 'sh', 'sh', 'sh', 'sh', 'sh', 'sh'],
  );
});

t.test('the synopsis: every command has the options it lists', async (t) => {
  const options = new Map<string, Set<string>>();
  let command = '';
  for (const line of blocks[0]!.text.split('\n')) {
    // `fault add` and `outcome add` have their options in their own help.
    const named = /^payemu (\S+)(\s+add\b)?/.exec(line);
    if (named) command = named[2] ? `${named[1]} add` : named[1]!;
    if (command.startsWith('-') || command === 'help') continue;
    const set = options.get(command) ?? new Set<string>();
    for (const [option] of line.replace(/\(also after.*\)/, '').matchAll(/--[a-z0-9-]+/g)) set.add(option);
    options.set(command, set);
  }
  t.equal(options.size, 19, 'seventeen commands, and the add of fault and outcome');
  // The helps at once: each is a Node start, and they do not depend on one another.
  const helps = await Promise.all([...options.keys()].map((command) => run(`payemu ${command} --help`)));
  for (const [i, [command, listed]] of [...options].entries()) {
    t.equal(helps[i]!.code, 0, `${command} --help: ${helps[i]!.stderr}`);
    for (const option of listed) t.ok(helps[i]!.stdout.includes(option), `payemu ${command} takes ${option}`);
  }
  const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
  for (const flag of ['--version', '-v']) t.equal((await run(`payemu ${flag}`)).stdout.trim(), version);
  for (const flag of ['--help', '-h', 'help', 'help start', 'start --help']) t.equal((await run(`payemu ${flag}`)).code, 0, flag);
});

t.test('a usage error is the line of the sample, exit 2', async (t) => {
  const [command, message] = blocks[1]!.text.trimEnd().split('\n');
  const result = await run(command!.replace(/^\$ /, ''));
  t.equal(result.code, 2);
  t.equal(result.stderr.trimEnd(), message);
});

t.test('--log FILE: start and exec write every line, listening first and stopped last', async (t) => {
  const [start, exec] = shellCommands(blocks[2]!);
  t.equal(start, 'payemu start --log payemu.jsonl');
  const dir = project(t, { 'check.js': CHECK }, { test: 'node check.js' });
  const started = await startPayemu(t, ['--in-memory', '--no-ui', '--log', 'payemu.jsonl'], { cwd: dir });
  await client(started.url, KEY).get('/v1/me');
  await started.proc.stop();
  const types = (file: string) =>
    fs
      .readFileSync(path.join(dir, file), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { type: string }).type);
  t.match(types('payemu.jsonl'), ['listening', 'request', 'stopped']);
  t.equal(exec, 'payemu exec --log artifacts/payemu.jsonl -- npm test');
  const result = await shAsync(exec!, dir);
  t.equal(result.code, 0, result.stderr);
  t.match(types('artifacts/payemu.jsonl'), ['listening', 'request', 'stopped'], 'the folder is created');
});

t.test('exec: the command runs against a fresh payemu, with the config and clock it is given', async (t) => {
  const [plain, hooks, config, ...rest] = shellCommands(blocks[3]!);
  t.same(rest, []);
  const clock =
    "const res = await fetch(process.env.PAYEMU_URL + '/_payemu/clock', { headers: { Authorization: 'Bearer ' + process.env.PAYEMU_API_KEY } });\nconst { now } = await res.json();\nconsole.log(now);\nprocess.exit(now.startsWith('2030-01-01T00:0') ? 0 : 1);\n";
  const dir = project(
    t,
    { 'check.js': CHECK, 'clock.js': clock, ci: { 'payemu.config.json': JSON.stringify({ sources: [{ slug: 'acme', currency: 'EUR' }] }) } },
    { test: 'node check.js' },
  );
  for (const command of [plain!, hooks!.replace(':3000/', `:${await freePort()}/`)]) {
    const result = await shAsync(command, dir);
    t.equal(result.code, 0, `${command}\n${result.stderr}`);
    t.match(result.stderr, /^payemu listening on http:\/\/127\.0\.0\.1:\d+$/m, 'the readiness line on stderr');
  }
  t.match(config, /-- pytest -q$/);
  const result = await shAsync(config!.replace('pytest -q', 'node clock.js'), dir);
  t.equal(result.code, 0, `${result.stdout}${result.stderr}`);
});

t.test('exec --expect-delivered: delivered is exit 0; the sample when a receiver keeps failing', async (t) => {
  const commands = shellCommands(blocks[4]!);
  t.equal(commands.length, 2);
  const dir = project(t, {}, { test: 'payemu trigger payment.completed' });
  const ok = await receiver(t);
  for (const command of commands) {
    const result = await shAsync(command.replace('http://127.0.0.1:3000/webhooks', ok.url), dir);
    t.equal(result.code, 0, `${command}\n${result.stderr}`);
  }
  // The sample: a receiver answering 500 to every attempt, retries at once so they run out.
  const failing = await receiver(t, (_req, res) => {
    res.statusCode = 500;
    res.end();
  });
  const result = await shAsync(`${commands[0]!.replace('http://127.0.0.1:3000/webhooks', failing.url).replace(' -- ', ' --webhook-backoff 0,0,0 -- ')}`, dir);
  t.equal(result.code, 3);
  const sample = blocks[5]!.text.trimEnd().split('\n');
  const lines = result.stderr.trimEnd().split('\n').slice(-sample.length);
  t.equal(lines[0], sample[0]);
  t.equal(lines[1]!.replace(/([0-9a-f]{8})-[0-9a-f-]{27}/, '$1-...').replace(/\b[0-9a-f]{8}-\.\.\./, '0b6f3c1e-...'), sample[1]);
});

t.test('trigger: the three commands, and the samples of a trigger and of a refused --set', async (t) => {
  const [completed, set, globex] = shellCommands(blocks[6]!);
  for (const command of [completed!, set!]) t.equal((await run(command)).code, 0, command);
  const json = await run(globex!);
  t.equal(json.code, 0, json.stderr);
  t.match(JSON.parse(json.stdout), { event: 'recurring.suspended', source: 'globex', mode: 'test' });

  // The sample's story, and docs/cli.md's events sample after it: an invoice, then the refund.
  t.equal((await run('payemu trigger invoice.created')).code, 0);
  const [command, ...output] = blocks[7]!.text.trimEnd().split('\n');
  const refunded = await run(command!.replace(/^\$ /, ''));
  t.equal(refunded.code, 0, refunded.stderr);
  t.same(normalize(refunded.stdout), normalize(output.join('\n')), 'the trigger sample');
  const [eventsCommand, ...eventsOutput] = blocks[12]!.text.trimEnd().split('\n');
  const events = await run(eventsCommand!.replace(/^\$ /, ''));
  t.equal(events.code, 0, events.stderr);
  t.same(normalize(events.stdout), normalize(eventsOutput.join('\n')), 'the events sample (docs/cli.md, events)');

  const [bad, message] = blocks[8]!.text.trimEnd().split('\n');
  const refused = await run(bad!.replace(/^\$ /, ''));
  t.equal(refused.code, 2);
  t.equal(refused.stderr.trimEnd(), message);
});

t.test('clock: show, advance 30d, advance --to', async (t) => {
  const [show, advance, to, ...rest] = shellCommands(blocks[9]!);
  t.same(rest, []);
  const shown = await run(show!);
  t.equal(shown.code, 0);
  t.match(shown.stdout, /^2026-11-\d\dT[\d:.]+Z {2}\(offset -\d+ s\)$/m);
  t.match((await run(advance!)).stdout, /^clock now 2026-12-/m);
  const moved = await run(to!);
  t.equal(moved.code, 0, moved.stderr);
  // The page's emulator runs with real time: the answer is read a moment after the clock stood at
  // the target (a millisecond on a loaded machine).
  t.match(moved.stdout, /^clock now 2027-01-01T09:00:00\.\d{6}Z$/m);
});

/** A checkout session of the shared emulator. */
async function session(body: Record<string, unknown> = { amount: 10 }): Promise<string> {
  const created = await client(url, KEY).post('/v1/sessions', body);
  return created.body.data.id as string;
}

t.test('pay: a session, a declined card, a card update, an invoice with 3-D Secure, a payment link', async (t) => {
  const [byId, declined, cardUpdate, invoice, link, ...rest] = shellCommands(blocks[10]!);
  t.same(rest, []);
  const api = client(url, KEY);
  const paid = await run(byId!.replace('cs_Xr8...', await session()));
  t.equal(paid.code, 0, paid.stderr);
  t.match(paid.stdout, /PAID/);

  const refused = await run(declined!.replace('http://127.0.0.1:4242', url).replace('cs_Xr8...', await session()));
  t.equal(refused.code, 1, 'a declined card is exit 1');
  t.match(refused.stdout + refused.stderr, /insufficient_funds/);

  const saving = await session({ amount: 5, save_payment_method: true });
  const card = (await api.post(`/_payemu/sessions/${saving}/complete`, { card_number: '4242424242424242' })).body.payment.payment_method as string;
  const schedule = await api.post('/v1/recurring-payments', { payment_method: card, amount: 9, frequency: 'monthly' });
  const update = await api.post(`/v1/recurring-payments/${schedule.body.data.attributes.reference}/payment-method-session`, {});
  t.equal(update.status, 201);
  const updated = await run(cardUpdate!.replace('http://127.0.0.1:4242/card-update/cs_9Qe...', update.body.data.attributes.checkout_url));
  t.equal(updated.code, 0, updated.stderr);

  const draft = await api.post('/v1/invoices', {
    customer_name: 'Jenny Rosen',
    customer_email: 'jenny.rosen@example.com',
    currency: 'USD',
    due_date: '2027-06-01',
    items: [{ description: 'Stapler', quantity: 1, unit_price: 9.99 }],
  });
  t.equal((await api.post(`/v1/invoices/${draft.body.data.id}/send`, {})).status, 200);
  const invoicePaid = await run(invoice!.replace('inv_3kT...', draft.body.data.id));
  t.equal(invoicePaid.code, 0, invoicePaid.stderr);
  t.match(invoicePaid.stdout, /PAID/);

  const created = await api.post('/v1/payment-links', { title: 'A stapler', amount: 9.99 });
  const linkPaid = await run(link!.replace('17', String(created.body.data.id)));
  t.equal(linkPaid.code, 0, linkPaid.stderr);
  t.match(linkPaid.stdout, /PAID/);
});

/** Runs a `--follow` command until it prints a line matching `match`, then stops it as Ctrl+C does. */
async function follow(t: Test, args: string[], cause: () => Promise<unknown>, match: RegExp): Promise<void> {
  const proc = spawnPayemu(t, args, { env: { PAYEMU_URL: url } });
  t.match(await proc.nextLine(), /\(Ctrl\+C to stop\)$/, 'it says what it follows, and how to stop');
  await cause();
  t.ok(await proc.waitForLine(match), `${args.join(' ')} prints it`);
  const exit = await proc.stop('SIGINT');
  t.ok(exit.code === 0 || exit.signal === 'SIGINT', 'Ctrl+C ends it');
}

t.test('events: the list, a filter, a reference as JSON, --follow, resend', async (t) => {
  const [all, failed, reference, following, resend, ...rest] = shellCommands(blocks[11]!);
  t.same(rest, []);
  t.equal((await run(all!)).code, 0);
  t.equal((await run(failed!)).code, 0);
  const json = JSON.parse((await run(reference!)).stdout) as { reference: string; event: string; id: string }[];
  t.ok(json.length >= 2);
  t.ok(
    json.every((e) => e.reference === 'order-1001'),
    'only order-1001',
  );
  t.equal(following, 'payemu events --follow');
  await follow(t, ['events', '--follow'], () => run('payemu trigger payment.failed'), /payment\.failed/);
  const resent = await run(resend!.replace('5f0c...', json[0]!.id));
  t.equal(resent.code, 0, resent.stderr);
});

t.test('webhook-chaos: show, set, set, clear, as the comments say', async (t) => {
  const [show, set, bad, clear, ...rest] = shellCommands(blocks[13]!);
  t.same(rest, []);
  t.match((await run(show!)).stdout, /\boff$/m);
  t.equal((await run(set!)).code, 0);
  t.match((await run(show!)).stdout, /duplicate=0\.2,delay=5s,seed=7$/m);
  t.equal((await run('payemu webhook-chaos')).stdout, (await run(show!)).stdout, 'show is the default');
  t.equal((await run(bad!)).code, 0);
  t.equal((await run(clear!)).code, 0);
  t.match((await run(show!)).stdout, /\boff$/m);
});

t.test('webhook: show, set, clear, as the comments say', async (t) => {
  const [show, set, clear, ...rest] = shellCommands(blocks[14]!);
  t.same(rest, []);
  t.match((await run(show!)).stdout, /^acme webhooks go nowhere/);
  const r = await receiver(t);
  t.equal((await run(set!.replace('http://127.0.0.1:3001/webhooks', r.url))).code, 0);
  t.equal((await run(show!)).stdout.trim(), `acme webhooks -> ${r.url} (set at run time, over the config)`);
  t.equal((await run(clear!)).code, 0);
  t.match((await run(show!)).stdout, /^acme webhooks go nowhere/);
});

t.test('verify-handler: a handler that verifies signatures passes every check', async (t) => {
  const [plain, json, ...rest] = shellCommands(blocks[15]!);
  t.same(rest, []);
  // A correct handler: verifyWebhook on the raw body, 400 when it throws, 200 otherwise.
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      try {
        verifyWebhook(body, req.headers['x-webhook-signature'] as string | undefined, 'whsec_payemu_acme');
        res.statusCode = 200;
      } catch {
        res.statusCode = 400;
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const here = (command: string) => command.replace('localhost:3000', `localhost:${(server.address() as AddressInfo).port}`);
  const graded = await run(here(plain!));
  t.equal(graded.code, 0, graded.stdout + graded.stderr);
  t.match(graded.stdout, /PASS/);
  t.notMatch(graded.stdout, /FAIL/);
  const report = await run(here(json!), { WEBHOOK_SECRET: 'whsec_payemu_acme' });
  t.equal(report.code, 0, report.stderr);
  t.match(JSON.parse(report.stdout), { passed: true });
});

t.test('requests: the journal, filtered, as JSON, followed, cleared', async (t) => {
  const [all, status, byPath, following, clear, ...rest] = shellCommands(blocks[16]!);
  t.same(rest, []);
  t.match((await run(all!)).stdout, /POST {2}\/v1\/sessions/);
  t.equal((await run(status!)).code, 0);
  const refunds = JSON.parse((await run(byPath!)).stdout) as { requests: { method: string; path: string }[]; total: number };
  t.ok(refunds.total >= 1, 'the page’s refund is there');
  t.ok(
    refunds.requests.every((r) => r.method === 'POST' && /^\/v1\/payments\/[^/]+\/refunds/.test(r.path)),
    'only refunds',
  );
  t.equal(following, 'payemu requests --follow');
  await follow(t, ['requests', '--follow'], () => client(url, KEY).get('/v1/me'), /GET\s+\/v1\/me/);
  t.match((await run(clear!)).stdout, /^cleared \d+ requests$/m);
});

t.test('fault: add three, list them, remove one, clear', async (t) => {
  const [refunds, apply, latency, list, remove, clear, ...rest] = shellCommands(blocks[17]!);
  t.same(rest, []);
  const added: string[] = [];
  for (const command of [refunds!, apply!, latency!]) {
    const result = await run(command);
    t.equal(result.code, 0, `${command}\n${result.stderr}`);
    added.push(/\bflt_\w+/.exec(result.stdout)![0]);
  }
  t.equal((await run(list!)).stdout.trimEnd().split('\n').length, 3, 'one line per fault');
  t.equal((JSON.parse((await run(`${list} --json`)).stdout) as unknown[]).length, 3, '--json: the faults, a JSON array');
  t.match(remove, /^payemu fault remove flt_\w{24}$/);
  t.equal((await run(remove!.replace(/flt_\w+/, added[0]!))).code, 0);
  t.match((await run(clear!)).stdout, /removed 2 faults/);
});

t.test('outcome: script a schedule and a saved card, list, clear', async (t) => {
  const [schedule, card, list, clear, ...rest] = shellCommands(blocks[18]!);
  t.same(rest, []);
  // The page's schedule `sub-1` and a saved card (the `pm_...` it marks).
  const api = client(url, KEY);
  const saving = await session({ amount: 5, save_payment_method: true });
  const pm = (await api.post(`/_payemu/sessions/${saving}/complete`, { card_number: '4242424242424242' })).body.payment.payment_method as string;
  t.equal((await api.post('/v1/recurring-payments', { payment_method: pm, amount: 9, frequency: 'monthly', reference: 'sub-1' })).status, 201);
  for (const command of [schedule!, card!.replace('pm_...', pm)]) {
    const result = await run(command);
    t.equal(result.code, 0, `${command}\n${result.stderr}`);
  }
  t.match((await run(list!)).stdout, /sub-1/);
  t.match(JSON.parse((await run(`${list} --json`)).stdout), { outcomes: [{}, {}] }, '--json: {"outcomes": [...]}');
  t.equal((await run(clear!)).code, 0);
  t.match((await run(list!)).stdout, /no scripted outcomes/);
});

t.test('export and import: the files, the import, a start from a snapshot, a snapshot on exit', async (t) => {
  const [scoped, all, stdout, load, startImport, startExport, ...rest] = shellCommands(blocks[19]!);
  t.same(rest, []);
  const state = path.join(cwd, 'state.json');
  t.match((await run(scoped!)).stdout, /^exported acme\/test: /);
  t.match((await run(all!)).stdout, /^exported everything: /);
  t.equal((await run(stdout!)).code, 0);
  t.match(JSON.parse(fs.readFileSync(state, 'utf8')), {}, 'the JSON on stdout, into the file');
  t.match((await run(load!)).stdout, /^imported \d+ records into acme\/test/);

  // The two starts, on a free port without the live view, in a folder of their own.
  const dir = project(t);
  fs.copyFileSync(state, path.join(dir, 'state.json'));
  t.equal(startImport, 'payemu start --import state.json');
  const imported = await startPayemu(t, ['--no-ui', '--import', 'state.json'], { cwd: dir });
  t.equal((await client(imported.url, KEY).get('/v1/payments/order-1001')).status, 200, 'the page’s payment is there');
  await imported.proc.stop();
  fs.rmSync(path.join(dir, 'state.json'));
  t.equal(startExport, 'payemu start --export-on-exit state.json');
  const exporting = await startPayemu(t, ['--no-ui', '--export-on-exit', 'state.json'], { cwd: dir });
  t.equal((await exporting.proc.stop()).code, 0);
  t.ok(fs.existsSync(path.join(dir, 'state.json')), 'written when payemu stops');
});

/** A folder where a payemu ran and stopped: `.payemu` holds its store. */
async function stoppedStore(t: Test): Promise<string> {
  const dir = project(t);
  const started = await startPayemu(t, ['--no-ui'], { cwd: dir });
  await client(started.url, KEY).post('/v1/sessions', { amount: 1 });
  await started.proc.stop();
  return dir;
}

t.test('reset: the key’s scope, everything, a data directory', async (t) => {
  const [scoped, all, data, ...rest] = shellCommands(blocks[20]!);
  t.same(rest, []);
  t.match((await run(scoped!)).stdout, /^reset acme\/test: \d+ records removed/);
  t.match((await run(all!)).stdout, /^reset everything: /);
  const dir = await stoppedStore(t);
  const result = await shAsync(data!, dir);
  t.equal(result.code, 0, result.stderr);
  t.notOk(fs.existsSync(path.join(dir, '.payemu')), 'no payemu holds it: deleted');
});

t.test('doctor: a healthy store is exit 0, and --repair leaves it working', async (t) => {
  const [check, repair, ...rest] = shellCommands(blocks[21]!);
  t.same(rest, []);
  const dir = await stoppedStore(t);
  const checked = await shAsync(check!, dir);
  t.equal(checked.code, 0, checked.stdout + checked.stderr);
  const repaired = await shAsync(repair!, dir);
  t.equal(repaired.code, 0, repaired.stdout + repaired.stderr);
});

t.test('start --json: the readiness object and the lines of the Output table have the fields the page names', async (t) => {
  // Not a block: the table of `--json` line types, checked for the types a short run makes.
  const table = new Map<string, string[]>();
  for (const [, type, fields] of fs.readFileSync(PAGE, 'utf8').matchAll(/^\| `([a-z.]+)` \| (.+) \|$/gm)) {
    if (!['listening', 'request', 'domain', 'webhook.attempt', 'clock.advanced', 'stopped'].includes(type!)) continue;
    // The top-level fields: the backticked names outside parentheses.
    const top = fields!.replace(/\([^()]*(\([^()]*\)[^()]*)*\)/g, '');
    table.set(
      type!,
      [...top.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!),
    );
  }
  t.equal(table.size, 6);
  const started = await startPayemu(t, ['--in-memory', '--json']);
  const api = client(started.url, KEY);
  t.equal((await api.post('/_payemu/trigger', { event: 'payment.completed' })).status, 200);
  t.equal((await api.post('/_payemu/clock/advance', { by: '1d' })).status, 200);
  await started.proc.stop();
  const lines = started.proc.lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
  for (const [type, fields] of table) {
    const line = lines.find((l) => l.type === type);
    t.ok(line, `a ${type} line`);
    const keys = Object.keys(line ?? {}).filter((k) => k !== 'type');
    // `source` and `mode` are absent from requests without a key; the page says so.
    t.same(keys.sort(), [...fields].sort(), `${type}: ${fields.join(', ') || 'nothing more'}`);
  }
  t.same(Object.keys(lines[0]!), ['type', 'url', 'dashboard', 'data_dir', 'clock', 'sources'], 'the readiness object, as the page writes it');
});
