import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import t from 'tap';
import { EVENT_NAMES } from '../src/catalogue.js';
import { BIN, runPayemu, startPayemu } from './helpers/cli.js';
import { client, emulator, type TestEmulator } from './helpers/emulator.js';
import { receiver } from './helpers/receiver.js';

// The rough edges of daily use, through the real binary: usage errors in one line, trigger's
// events and --set keys, clock advance --to, aligned event columns, dated log lines, where
// webhooks go, a config file created after start, a failed start that leaves nothing behind,
// and --log FILE.
t.jobs = 4;
t.setTimeout(240_000);

const at = (e: TestEmulator) => ({ env: { PAYEMU_URL: e.url } });

t.test('a mistyped flag, a missing argument, an unknown command: one line naming it and the --help to read, exit 2', async (t) => {
  const cases: [string[], RegExp][] = [
    [['start', '--prot', '0'], /^payemu: unknown option '--prot' \(did you mean --port\?\)\. See `payemu start --help`\.$/],
    [['exec', '--webhok-url', 'x', '--', 'true'], /^payemu: unknown option '--webhok-url' \(did you mean --webhook-url\?\)\. See `payemu exec --help`\.$/],
    [['clock', 'advance', '--too', '2030-01-01'], /^payemu: unknown option '--too' \(did you mean --to\?\)\. See `payemu clock advance --help`\.$/],
    [['trigger'], /^payemu: missing required argument 'event'\. See `payemu trigger --help`\.$/],
    [['strat'], /^payemu: unknown command 'strat' \(did you mean start\?\)\. See `payemu --help`\.$/],
    [
      ['start', '--port', 'abc'],
      /^payemu: option '-p, --port <port>' argument 'abc' is invalid\. must be a port number from 0 to 65535\. See `payemu start --help`\.$/,
    ],
  ];
  for (const [args, line] of cases) {
    const res = await runPayemu(t, args, { cwd: t.testdir() });
    t.equal(res.code, 2, args.join(' '));
    t.equal(res.stdout, '', `${args.join(' ')}: no help on stdout`);
    t.equal(res.stderr.split('\n').filter(Boolean).length, 1, `${args.join(' ')}: one line: ${res.stderr}`);
    t.match(res.stderr.trim(), line);
  }
  // --help still prints the help, exit 0.
  const help = await runPayemu(t, ['start', '--help']);
  t.equal(help.code, 0);
  t.match(help.stdout, /--webhook-url/);
});

t.test('trigger --help lists every event; a --set key the event does not take is exit 2 naming it and the keys it takes', async (t) => {
  const help = await runPayemu(t, ['trigger', '--help']);
  t.equal(help.code, 0);
  const listed = help.stdout.split(/^Events:$/m)[1] ?? '';
  for (const event of EVENT_NAMES) t.match(listed, new RegExp(`^  ${event.replace('.', '\\.')} +\\S`, 'm'), `lists ${event} with what it does`);

  const e = await emulator(t);
  const typo = await runPayemu(t, ['trigger', 'payment.completed', '--set', 'amout=3'], at(e));
  t.equal(typo.code, 2);
  t.equal(
    typo.stderr.trim(),
    'payemu: --set "amout": payment.completed takes no such key. Its keys: amount, currency, reference, customer_email, description, metadata.<key>, cards.approved',
  );
  t.equal(e.events.list().length, 0, 'nothing was triggered');

  const card = await runPayemu(t, ['trigger', 'recurring.updated', '--set', 'cards.declined=4000000000000002', '--set', 'customer_name=X'], at(e));
  t.equal(card.code, 2);
  t.match(
    card.stderr,
    /--set "cards\.declined", "customer_name": recurring\.updated takes no such keys\. Its keys: amount, new_amount, currency, reference, customer_email, metadata\.<key>, cards\.approved/,
  );

  // The keys it takes work: metadata.<any>, cards.<one it uses>, the event's own.
  const ok = await runPayemu(t, ['trigger', 'recurring.updated', '--json', '--set', 'new_amount=31', '--set', 'cards.approved=5555555555554444'], at(e));
  t.equal(ok.code, 0, ok.stderr);
  t.match(e.events.get(JSON.parse(ok.stdout).event_id)?.payload.data, { amount: 31 });
  const metadata = await runPayemu(t, ['trigger', 'payment.completed', '--json', '--set', 'metadata.plan=gold'], at(e));
  t.equal(metadata.code, 0, metadata.stderr);
  t.match(e.events.get(JSON.parse(metadata.stdout).event_id)?.payload.data, { metadata: { plan: 'gold' } });
  const invoice = await runPayemu(t, ['trigger', 'invoice.created', '--set', 'customer_name=Ada'], at(e));
  t.equal(invoice.code, 0, invoice.stderr);
});

t.test('start and exec: a bad duration, number or timestamp is exit 2 in one line naming the option, before anything starts', async (t) => {
  const cases: [string[], RegExp][] = [
    [['start', '--webhook-backoff', '1s,5x,25s'], /--webhook-backoff takes three durations/],
    [['start', '--webhook-timeout', '0'], /--webhook-timeout: not a duration: 0/],
    [['start', '--port', '70000'], /'-p, --port <port>' argument '70000' is invalid/],
    [['start', '--journal-size', '-1'], /'--journal-size <n>' argument '-1' is invalid/],
    [['start', '--clock-start', 'tomorrow'], /--clock-start: not an ISO 8601 timestamp: tomorrow/],
    [['start', '--webhook-chaos', 'delay=5x'], /'--webhook-chaos <list>' argument 'delay=5x' is invalid/],
    [['exec', '--settle', '5x', '--', 'true'], /'--settle <duration>' argument '5x' is invalid\. must be a duration/],
    [['exec', '--webhook-timeout', 'soon', '--', 'true'], /--webhook-timeout: not a duration: soon/],
  ];
  for (const [args, line] of cases) {
    const cwd = t.testdir();
    // A start that got past its options would serve (and exec would run `true`): each is refused first.
    const res = await runPayemu(t, args[0] === 'start' ? ['start', '--no-ui', '--port', '0', ...args.slice(1)] : args, { cwd });
    t.equal(res.code, 2, args.join(' '));
    t.equal(res.stderr.split('\n').filter(Boolean).length, 1, `${args.join(' ')}: one line: ${res.stderr}`);
    t.match(res.stderr, line);
    t.same(fs.readdirSync(cwd), [], `${args.join(' ')}: nothing started`);
  }
});

t.test('clock advance --to TIMESTAMP', async (t) => {
  const e = await emulator(t, { clockStart: '2030-01-01T00:00:00Z', freezeClock: true });
  await e.api.post('/v1/sessions', { amount: 1 });
  const to = await runPayemu(t, ['clock', 'advance', '--to', '2030-01-05T12:00:00Z'], at(e));
  t.equal(to.code, 0, to.stderr);
  t.match(to.stdout, /^clock now 2030-01-05T12:00:00\.000000Z\nran:\n {2}session\.expired: 1/);
  const json = await runPayemu(t, ['clock', 'advance', '--to', '2030-02-01', '--json'], at(e));
  t.equal(JSON.parse(json.stdout).now, '2030-02-01T00:00:00.000000Z', 'a bare date is midnight UTC');

  const past = await runPayemu(t, ['clock', 'advance', '--to', '2030-01-01'], at(e));
  t.equal(past.code, 1, 'the emulator refuses a time in the past');
  t.match(past.stderr, /422: .*must not be in the past/);
  for (const args of [['--to', 'tomorrow'], ['1d', '--to', '2031-01-01'], [], ['5x']]) {
    const res = await runPayemu(t, ['clock', 'advance', ...args], at(e));
    t.equal(res.code, 2, args.join(' '));
    t.match(
      res.stderr,
      /^payemu: (--to: not an ISO 8601 timestamp: tomorrow|clock advance takes a duration or --to TIMESTAMP, not both|clock advance needs a duration|command-argument value '5x' is invalid for argument 'duration'\. must be a duration)/,
    );
    // The same with nothing listening: judged before any request (else exit 3).
    t.equal((await runPayemu(t, ['clock', 'advance', ...args], { env: { PAYEMU_URL: 'http://127.0.0.1:9' } })).code, 2, `${args.join(' ')}, nothing listening`);
  }
  t.equal(e.clock.now(), '2030-02-01T00:00:00.000000Z', 'refused advances moved nothing');
});

t.test('payemu events: the columns line up', async (t) => {
  const e = await emulator(t);
  await e.trigger('payment.completed', { data: { reference: 'a', amount: 5 } });
  await e.trigger('payment.refunded', { data: { reference: 'a-much-longer-reference-42', amount: 1234.5 } });
  await e.trigger('invoice.created');
  await e.trigger('recurring.payment_method_updated');
  const res = await runPayemu(t, ['events'], at(e));
  t.equal(res.code, 0, res.stderr);
  const lines = res.stdout.split('\n').filter(Boolean);
  t.ok(lines.length >= 4);
  const starts = (line: string) => [...line.matchAll(/ {2}(?=\S)/g)].map((m) => m.index! + 2);
  // Every column begins at the same place on every line: the id's, the state's, the event's.
  const ids = lines.map((line) => line.lastIndexOf(' ') + 1);
  t.equal(new Set(ids).size, 1, `the ids line up:\n${res.stdout}`);
  const states = lines.map((line) => line.search(/ (no_endpoint|pending|delivered|retrying|failed)/));
  t.equal(new Set(states).size, 1, `the delivery states line up:\n${res.stdout}`);
  t.equal(new Set(lines.map((line) => starts(line)[0])).size, 1, 'the events line up');
  const amounts = lines.filter((line) => /\d USD/.test(line)).map((line) => line.search(/ USD /));
  t.equal(new Set(amounts).size, 1, 'amounts are right-aligned against their currency');
  t.match(res.stdout, /payment\.refunded +a-much-longer-reference-42 +1234\.50 USD +no_endpoint/, 'two decimals, as the terminal UI writes them');
  t.match(res.stdout, /payment\.completed +a +5\.00 USD +no_endpoint/);
  t.match(res.stdout, /invoice\.created +inv_\w+ +25\.00 USD +no_endpoint/, "an invoice's total, not a currency alone");
});

t.test("plain log lines carry the date and time; the banner says where each Source's webhooks go", async (t) => {
  const cwd = t.testdir({ 'payemu.config.json': JSON.stringify({ sources: [{ slug: 'globex', webhook_url: 'http://127.0.0.1:9/globex-hooks' }] }) });
  const { proc, url, first } = await startPayemu(t, ['--no-ui', '--in-memory'], { cwd });
  t.match(first, /^payemu listening on http:\/\/127\.0\.0\.1:\d+$/, 'the readiness line is unchanged');
  t.match(await proc.waitForLine(/^ {2}acme /), /test key sk_test_payemu_acme/);
  t.equal(await proc.nextLine(), '          webhooks go nowhere: set a URL with --webhook-url URL, or webhook_url in payemu.config.json');
  await proc.waitForLine(/^ {2}globex /);
  t.equal(await proc.nextLine(), '          webhooks -> http://127.0.0.1:9/globex-hooks');
  t.equal((await fetch(`${url}/_payemu/health`)).status, 200);
  t.match(await proc.waitForLine(/GET \/_payemu\/health/), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d 200 GET \/_payemu\/health /);
  // Amounts as every output writes them; an invoice's line shows its total.
  const api = client(url, 'sk_test_payemu_acme');
  t.equal((await api.post('/_payemu/trigger', { event: 'payment.completed', data: { reference: 'log-1', amount: 12.5 } })).status, 200);
  t.match(await proc.waitForLine(/ payment\.completed /), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d payment\.completed acme\/test log-1 12\.50 USD PAID$/);
  t.equal((await api.post('/_payemu/trigger', { event: 'invoice.created' })).status, 200);
  t.match(await proc.waitForLine(/ invoice\.created /), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d invoice\.created acme\/test inv_\w+ 25\.00 USD draft$/);
  // Once the virtual clock moves off the real day, each line's date says so (it is the virtual clock's).
  const advanced = await api.post<{ now: string }>('/_payemu/clock/advance', { by: '30d' });
  const day = advanced.body.now.slice(0, 10);
  await proc.waitForLine(/clock advanced to/);
  t.equal((await fetch(`${url}/_payemu/health`)).status, 200);
  t.match(
    await proc.waitForLine(/GET \/_payemu\/health/),
    new RegExp(`^${day} \\d\\d:\\d\\d:\\d\\d 200 GET /_payemu/health `),
    'the date of the advanced clock',
  );
  t.same(await proc.stop(), { code: 0, signal: null });

  // --webhook-url: for every Source whose config names no webhook_url.
  const everywhere = await startPayemu(t, ['--no-ui', '--in-memory', '--webhook-url', 'http://127.0.0.1:9/all'], { cwd });
  await everywhere.proc.waitForLine(/^ {2}acme /);
  t.equal(await everywhere.proc.nextLine(), '          webhooks -> http://127.0.0.1:9/all');
  await everywhere.proc.waitForLine(/^ {2}globex /);
  t.equal(await everywhere.proc.nextLine(), '          webhooks -> http://127.0.0.1:9/globex-hooks');
  await everywhere.proc.stop();

  const json = await startPayemu(t, ['--json', '--in-memory', '--webhook-url', 'http://127.0.0.1:9/all'], { cwd });
  t.match(JSON.parse(json.first).sources, [
    { slug: 'acme', webhook_url: 'http://127.0.0.1:9/all' },
    { slug: 'globex', webhook_url: 'http://127.0.0.1:9/globex-hooks' },
  ]);
  await json.proc.stop();
});

t.test('a payemu.config.json created in the working directory after start is picked up', async (t) => {
  const cwd = t.testdir();
  const { proc, url } = await startPayemu(t, ['--no-ui', '--in-memory'], { cwd });
  await proc.waitForLine(/^ {2}globex /);
  const file = path.join(cwd, 'payemu.config.json');
  fs.writeFileSync(file, JSON.stringify({ sources: [{ slug: 'acme', test_key: 'sk_test_created' }] }));
  t.match(await proc.waitForLine(/config reloaded/), file);
  t.equal((await client(url, 'sk_test_created').get('/v1/me')).status, 200, 'its key works');
  t.equal((await client(url, 'sk_test_payemu_acme').get('/v1/me')).status, 401, 'the default key is replaced');
  // Watched from then on like any config file.
  fs.writeFileSync(file, JSON.stringify({ sources: [{ slug: 'acme', test_key: 'nope' }] }));
  t.match(await proc.waitForLine(/config edit rejected/), /sources\.0\.test_key/);
  fs.writeFileSync(file, JSON.stringify({ sources: [{ slug: 'acme', test_key: 'sk_test_edited' }] }));
  await proc.waitForLine(/config reloaded/);
  t.equal((await client(url, 'sk_test_edited').get('/v1/me')).status, 200);
  t.equal(proc.stderr, '');
  t.same(await proc.stop(), { code: 0, signal: null });
});

t.test('a start that fails before serving leaves no new data directory, and keeps one that existed', async (t) => {
  const busy = net.createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  t.teardown(() => busy.close());
  const port = String((busy.address() as net.AddressInfo).port);
  const cwd = t.testdir({ existing: { 'notes.txt': 'mine' } });

  const inUse = await runPayemu(t, ['start', '--no-ui', '--port', port, '--data', 'fresh'], { cwd });
  t.equal(inUse.code, 1);
  t.match(inUse.stderr, /is in use/);
  t.notOk(fs.existsSync(path.join(cwd, 'fresh')), 'port in use: no data directory left');

  const badClock = await runPayemu(t, ['start', '--no-ui', '--port', '0', '--data', 'fresh', '--clock-start', 'yesterday'], { cwd });
  t.equal(badClock.code, 2);
  t.notOk(fs.existsSync(path.join(cwd, 'fresh')), 'bad --clock-start: no data directory left');

  const badTimeout = await runPayemu(t, ['start', '--no-ui', '--port', '0', '--data', 'fresh', '--webhook-timeout', 'soon'], { cwd });
  t.equal(badTimeout.code, 2);
  t.notOk(fs.existsSync(path.join(cwd, 'fresh')), 'bad --webhook-timeout: no data directory left');

  fs.writeFileSync(path.join(cwd, 'payemu.config.json'), '{"sources": [');
  const badConfig = await runPayemu(t, ['start', '--no-ui', '--port', '0', '--data', 'fresh'], { cwd });
  t.equal(badConfig.code, 2);
  t.notOk(fs.existsSync(path.join(cwd, 'fresh')), 'bad config: no data directory left');
  fs.rmSync(path.join(cwd, 'payemu.config.json'));

  const kept = await runPayemu(t, ['start', '--no-ui', '--port', port, '--data', 'existing'], { cwd });
  t.equal(kept.code, 1);
  t.equal(fs.readFileSync(path.join(cwd, 'existing/notes.txt'), 'utf8'), 'mine', 'a directory that existed is kept, with what it held');

  // A directory payemu used before is kept too.
  const used = await startPayemu(t, ['--no-ui', '--data', 'store'], { cwd });
  await used.proc.stop();
  const again = await runPayemu(t, ['start', '--no-ui', '--port', port, '--data', 'store'], { cwd });
  t.equal(again.code, 1);
  t.ok(
    fs.readdirSync(path.join(cwd, 'store')).some((f) => f.startsWith('journal')),
    'its journal is still there',
  );
});

/** The JSON lines of a --log file. */
function logLines(file: string): { type: string; [key: string]: any }[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

t.test('exec --log FILE: every request, event and webhook attempt of the command, as JSON lines', async (t) => {
  const hook = await receiver(t);
  const cwd = t.testdir();
  const file = path.join(cwd, 'artifacts/payemu.jsonl');
  const command = `
    const api = (path, body) => fetch(process.env.PAYEMU_URL + path, { method: 'POST', headers: { Authorization: 'Bearer ' + process.env.PAYEMU_API_KEY, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
    const session = await api('/v1/sessions', { amount: 12, reference: 'logged-1' });
    await api('/_payemu/sessions/' + session.data.id + '/complete', { card_number: '4242424242424242' });
    // Waits for the webhook, so its attempt is in the log before payemu stops.
    for (;;) {
      const { events } = await fetch(process.env.PAYEMU_URL + '/_payemu/events', { headers: { Authorization: 'Bearer ' + process.env.PAYEMU_API_KEY } }).then((r) => r.json());
      if (events[0]?.delivery_status === 'delivered') break;
      await new Promise((resolve) => setImmediate(resolve));
    }`;
  const res = await runPayemu(
    t,
    ['exec', '--log', 'artifacts/payemu.jsonl', '--webhook-url', hook.url, '--', process.execPath, '--input-type=module', '-e', command],
    { cwd },
  );
  t.equal(res.code, 0, res.stderr);
  const lines = logLines(file);
  t.match(lines[0], { type: 'listening', data_dir: null, sources: [{ slug: 'acme', webhook_url: hook.url }] });
  t.match(
    lines.find((l) => l.type === 'request' && l.path === '/v1/sessions'),
    { method: 'POST', status: 201, source: 'acme', mode: 'test' },
  );
  t.match(
    lines.find((l) => l.type === 'domain'),
    { name: 'payment.completed', data: { reference: 'logged-1' } },
  );
  t.match(
    lines.find((l) => l.type === 'webhook.attempt'),
    { event: { event: 'payment.completed' }, attempt: { status: 200, url: hook.url } },
  );
  t.same(lines.at(-1), { type: 'stopped' }, 'complete: the stop is the last line');
  t.equal(res.stdout, '', 'exec itself still prints nothing on stdout');

  const unwritable = await runPayemu(t, ['exec', '--log', path.join(file, 'under-a-file.jsonl'), '--', process.execPath, '-e', '0'], { cwd });
  t.equal(unwritable.code, 2);
  t.match(unwritable.stderr, /^payemu: --log: cannot write .*under-a-file\.jsonl: (ENOTDIR|EEXIST)/);
});

t.test('start --log FILE: with plain lines, and with the terminal UI', async (t) => {
  const cwd = t.testdir();
  const plain = await startPayemu(t, ['--no-ui', '--in-memory', '--log', 'plain.jsonl'], { cwd });
  t.equal((await client(plain.url, 'sk_test_payemu_acme').post('/v1/sessions', { amount: 3 })).status, 201);
  await plain.proc.waitForLine(/POST \/v1\/sessions/);
  t.same(await plain.proc.stop(), { code: 0, signal: null });
  const lines = logLines(path.join(cwd, 'plain.jsonl'));
  t.match(lines[0], { type: 'listening', url: plain.url });
  t.match(
    lines.find((l) => l.type === 'request'),
    { method: 'POST', path: '/v1/sessions', status: 201 },
  );
  t.same(lines.at(-1), { type: 'stopped' });

  await t.test('the terminal UI', { skip: fs.existsSync('/usr/bin/script') ? false : 'script(1) is not installed' }, async (t) => {
    // script(1) gives payemu a terminal; the UI draws on it while the log file fills. Each
    // redraw of the UI is a moment to look at the file again: nothing waits on the clock.
    const file = path.join(cwd, 'tui.jsonl');
    const env: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm-256color', COLUMNS: '120', LINES: '40' };
    delete env.CI;
    delete env.CONTINUOUS_INTEGRATION;
    const start = [process.execPath, BIN, 'start', '--port', '0', '--in-memory', '--log', file].map((w) => `'${w}'`).join(' ');
    const child = spawn('script', ['-qfec', start, '/dev/null'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    t.teardown(() => void (child.exitCode === null && child.kill('SIGKILL')));
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    let screen = '';
    const redraws: (() => void)[] = [];
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      screen += chunk;
      for (const wake of redraws.splice(0)) wake();
    });
    const until = async <T>(read: () => T | undefined, what: string): Promise<T> => {
      for (;;) {
        const value = read();
        if (value !== undefined) return value;
        if (child.exitCode !== null) throw new Error(`payemu ended before ${what}:\n${screen}`);
        await new Promise<void>((resolve) => redraws.push(resolve));
      }
    };
    const linesNow = () => (fs.existsSync(file) ? logLines(file) : []);
    const listening = await until(() => linesNow().find((l) => l.type === 'listening'), 'the listening line');
    t.notMatch(screen, /payemu listening on/, 'the terminal shows the UI, not the plain lines');
    t.equal((await client(listening.url, 'sk_test_payemu_acme').post('/v1/sessions', { amount: 4 })).status, 201);
    await until(() => linesNow().find((l) => l.type === 'request' && l.path === '/v1/sessions'), 'the request line');
    child.stdin.write('q');
    t.equal(await exited, 0, 'q stops it');
    t.same(logLines(file).at(-1), { type: 'stopped' }, 'the file is complete');
  });
});

t.test('stdout read more slowly than lines come (a long clock advance): those past 8 MiB are left out and counted, and logging goes on', async (t) => {
  const { proc, url } = await startPayemu(t, ['--no-ui', '--in-memory', '--freeze-clock', '--clock-start', '2027-01-01T12:00:00Z']);
  const api = client(url, 'sk_test_payemu_acme');
  const session = await api.post('/v1/sessions', { amount: 1, save_payment_method: true });
  const card = (await api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: '4242424242424242' })).body.payment.payment_method;
  for (let i = 0; i < 100; i++) await api.post('/v1/recurring-payments', { payment_method: card, amount: 1, frequency: 'daily', start_date: '2027-01-02' });
  // Nothing is read while the clock advances: the pipe fills, and what payemu cannot write waits.
  proc.child.stdout!.pause();
  t.equal((await api.post('/_payemu/clock/advance', { by: '300d' })).status, 200);
  proc.child.stdout!.resume();
  const notice = await proc.waitForLine(/log lines left out/);
  const left = Number(
    /^\S+ \S+ (\d+) log lines left out: stdout was read more slowly than payemu wrote them \(--log FILE keeps every line\)$/.exec(notice)?.[1],
  );
  t.ok(left > 0, `${left} lines left out`);
  // 30,000 charges, four lines each (two events, and "no webhook endpoint" for each), the checkout's two, the advance's two.
  const kept = proc.lines.filter((line) => /recurring\.charged|payment\.completed|clock advanced to|POST \/_payemu\/clock\/advance/.test(line)).length;
  t.equal(kept + left, 4 * 30_000 + 2 + 2, 'every line is written or counted');
  await api.get('/v1/payments?per_page=1');
  await proc.waitForLine(/ 200 GET \/v1\/payments [\d.]+ms acme\/test$/);
});
