import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { emulator, type TestEmulator } from './helpers/emulator.js';
import { checkDriftLog } from './helpers/openapi.js';
import { nodeWithoutCoverage } from './helpers/plain-node.js';

const BIN = path.resolve('bin/payemu.js');

// About 40 runs of the binary and a dozen emulators: past tap's 120 s on a 2-core machine under load.
t.setTimeout(240_000);

/**
 * Runs the real binary; resolves with its exit code and output. The drift guard, as in
 * helpers/cli.ts: the answers the command receives are logged (PAYEMU_DRIFT_LOG) and checked
 * against the OpenAPI document; one that leaves its schema rejects, naming it.
 */
function run(
  args: string[],
  env: Record<string, string> = {},
  options: { cwd?: string; nodeArgs?: string[]; onStdout?: (text: string, child: ReturnType<typeof spawn>) => void } = {},
) {
  return new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((resolve, reject) => {
    const drift = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-drift-'));
    const log = path.join(drift, 'answers.jsonl');
    const child = spawn(...nodeWithoutCoverage([...(options.nodeArgs ?? []), BIN, ...args]), {
      env: { ...process.env, CI: '1', PAYEMU_DRIFT_LOG: log, ...env },
      cwd: options.cwd,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      options.onStdout?.(stdout, child);
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code, signal) => {
      const problems = fs.existsSync(log) ? checkDriftLog(fs.readFileSync(log, 'utf8')) : [];
      fs.rmSync(drift, { recursive: true, force: true });
      if (problems.length > 0) reject(new Error(`payemu ${args.join(' ')} received answers that leave the OpenAPI document:\n${problems.join('\n')}`));
      else resolve({ code, signal, stdout, stderr });
    });
  });
}

const at = (e: TestEmulator) => ({ PAYEMU_URL: e.url });

t.test('trigger: prints what it created and the event id; --json; --set; unknown events', async (t) => {
  const e = await emulator(t);
  const human = await run(['trigger', 'payment.completed'], at(e));
  t.equal(human.code, 0, human.stderr);
  t.match(human.stdout, /payment\.completed triggered on acme\/test/);
  // Every value named: the status with its reason, what each step made (a payment's id is a number).
  t.match(human.stdout, /POST\s+\/v1\/sessions {2}201 Created {2}session cs_\w+\n/);
  t.match(human.stdout, /POST\s+\/_payemu\/sessions\/cs_\w+\/complete {2}200 OK {2}payment \d+\n/);
  t.match(human.stdout, /event id [0-9a-f-]{36}/);
  const recurring = await run(['trigger', 'recurring.charged', '--set', 'reference=sub-cli-1'], at(e));
  t.equal(recurring.code, 0, recurring.stderr);
  t.match(recurring.stdout, /POST\s+\/v1\/recurring-payments {2}201 Created {2}recurring payment sub-cli-1\n/, 'a chosen reference is named by its path');
  t.match(recurring.stdout, /POST\s+\/_payemu\/clock\/advance {2}200 OK\n/, 'a step that makes nothing names nothing');
  const refund = await run(['trigger', 'payment.refunded'], at(e));
  t.match(refund.stdout, /POST\s+\/v1\/payments\/pay_\w+\/refunds {2}201 Created {2}refund re_\w+\n/);

  const json = await run(['trigger', 'payment.refunded', '--json', '--set', 'amount=5', '--set', 'reference=cli-1', '--set', 'metadata.order=9'], at(e));
  t.equal(json.code, 0, json.stderr);
  const result = JSON.parse(json.stdout);
  t.equal(result.event, 'payment.refunded');
  t.match(e.events.get(result.event_id)?.payload.data, { reference: 'cli-1', refund_amount: 5, metadata: { order: 9 } });

  const globex = JSON.parse((await run(['trigger', 'invoice.paid', '--json', '--source', 'globex'], at(e))).stdout);
  t.equal(globex.source, 'globex');

  const unknown = await run(['trigger', 'payment.exploded'], at(e));
  t.equal(unknown.code, 2);
  t.match(unknown.stderr, /unknown event "payment.exploded"/);
  t.match(unknown.stderr, /invoice\.overdue/);

  const refused = await run(['trigger', 'payment.completed', '--set', 'reference=cli-1'], at(e));
  t.equal(refused.code, 1);
  t.match(refused.stderr, /409/);
  t.equal((await run(['trigger', 'payment.completed', '--set', 'oops'], at(e))).code, 2);
});

t.test('nothing listening: a clear message and exit code 3', async (t) => {
  for (const args of [['trigger', 'payment.completed'], ['clock'], ['events'], ['pay', 'cs_x'], ['reset']]) {
    const res = await run([...args, '--url', 'http://127.0.0.1:9']);
    t.equal(res.code, 3, args.join(' '));
    t.match(res.stderr, /no payemu at http:\/\/127\.0\.0\.1:9: .*payemu start/);
  }
});

t.test('a bad --url or PAYEMU_URL, a bad clock advance duration, events --limit or --event: exit 2 in one line, before any request', async (t) => {
  const nobody = { PAYEMU_URL: 'http://127.0.0.1:9' };
  const cases: [string[], Record<string, string>, RegExp][] = [
    [['clock', 'advance', '5x'], nobody, /argument 'duration'\. must be a duration: 30d, 12h/],
    [['clock', '--url', 'notaurl'], {}, /option '--url <url>' argument 'notaurl' is invalid\. must be an http:\/\/ or https:\/\/ URL/],
    [['events', '--url', 'ftp://127.0.0.1:9'], {}, /option '--url <url>' argument 'ftp:\/\/127\.0\.0\.1:9' is invalid/],
    [['trigger', 'payment.completed'], { PAYEMU_URL: 'localhost:4242' }, /^payemu: PAYEMU_URL: not an http:\/\/ or https:\/\/ URL: localhost:4242/],
    [['events', '--limit', '0'], nobody, /option '--limit <n>' argument '0' is invalid\. must be a whole number from 1 to 1000\. See `payemu events --help`/],
    [['events', '--limit', 'ten'], nobody, /option '--limit <n>' argument 'ten' is invalid/],
    [
      ['events', '--event', 'payment.exploded'],
      nobody,
      /option '--event <name>' argument 'payment\.exploded' is invalid\. Allowed choices are payment\.completed/,
    ],
    [['events', '--follow', '--limit', '5'], nobody, /^payemu: events --follow streams what happens next: it takes --event, not --limit\./],
    [['events', '--follow', '--reference', 'order-1'], nobody, /it takes --event, not --reference\./],
  ];
  for (const [args, env, line] of cases) {
    const res = await run(args, env);
    t.equal(res.code, 2, args.join(' '));
    t.equal(res.stderr.split('\n').filter(Boolean).length, 1, `${args.join(' ')}: one line`);
    t.match(res.stderr, line);
  }
});

t.test('a wrong key is a refusal with the envelope detail (exit 1)', async (t) => {
  const e = await emulator(t);
  const res = await run(['clock', '--key', 'sk_test_nope'], at(e));
  t.equal(res.code, 1);
  t.match(res.stderr, /401: Invalid or missing API key/);
});

t.test('clock show and advance', async (t) => {
  const e = await emulator(t, { clockStart: '2030-01-01T00:00:00Z', freezeClock: true });
  t.match((await run(['clock'], at(e))).stdout, /2030-01-01T00:00:00\.000000Z {2}\(offset \d+ s, frozen\)/);
  await e.api.post('/v1/sessions', { amount: 1 });
  const advanced = await run(['clock', 'advance', '2d'], at(e));
  t.equal(advanced.code, 0);
  t.match(advanced.stdout, /clock now 2030-01-03T00:00:00\.000000Z\nran:\n {2}session\.expired: 1/);
  t.same(JSON.parse((await run(['clock', 'show', '--json'], at(e))).stdout).now, '2030-01-03T00:00:00.000000Z');
  const soon = await run(['clock', 'advance', 'soon'], at(e));
  t.equal(soon.code, 2, 'a duration that cannot be read is a usage error');
  t.match(
    soon.stderr,
    /^payemu: command-argument value 'soon' is invalid for argument 'duration'\. must be a duration: 30d, .*See `payemu clock advance --help`\.\n$/,
  );
  t.equal(JSON.parse((await run(['clock', 'show', '--json'], at(e))).stdout).now, '2030-01-03T00:00:00.000000Z', 'and moved nothing');
});

t.test('a command reads its answers without loading fetch (undici: about a fifth of a short command’s CPU)', async (t) => {
  const e = await emulator(t);
  await e.api.post('/v1/sessions', { amount: 1 });
  const report = path.join(t.testdir(), 'report.cjs');
  fs.writeFileSync(report, "process.on('exit', () => process.stderr.write(JSON.stringify(process.moduleLoadList.filter((m) => m.includes('undici')))));\n");
  // A body read whole (clock), a list (events), a body streamed to stdout (export), a refusal (a wrong key).
  for (const [args, env, code] of [
    [['clock'], {}, 0],
    [['events', '--limit', '1'], {}, 0],
    [['export'], {}, 0],
    [['clock'], { PAYEMU_API_KEY: 'sk_test_nobody' }, 1],
  ] as const) {
    const out = await run([...args], { ...at(e), ...env }, { nodeArgs: ['--require', report] });
    t.equal(out.code, code, out.stderr);
    t.same(JSON.parse(out.stderr.slice(out.stderr.lastIndexOf('['))), [], `payemu ${args.join(' ')}: no module of undici loaded`);
  }
});

t.test('pay: a session id, a checkout URL, an invoice URL, a payment link URL; declines exit 1', async (t) => {
  const e = await emulator(t);
  const s1 = (await e.api.post('/v1/sessions', { amount: 10, reference: 'by-id' })).body.data;
  const paid = await run(['pay', s1.id], at(e));
  t.equal(paid.code, 0, paid.stderr);
  t.match(paid.stdout, /PAID 10\.00 USD reference by-id/);

  const s2 = (await e.api.post('/v1/sessions', { amount: 10, reference: 'by-url' })).body.data;
  const declined = await run(['pay', s2.attributes.checkout_url, '--card', '4000 0000 0000 0002']);
  t.equal(declined.code, 1, 'the URL says where payemu is; a decline exits 1');
  t.match(declined.stdout, /FAILED .*\n {2}insufficient_funds: Your card has insufficient funds\./);
  const threeDs = await run(['pay', s2.attributes.checkout_url, '--card', '4000002760003184', '--3ds', 'pass', '--json']);
  t.equal(JSON.parse(threeDs.stdout).payment.status, 'PAID');

  const invoice = (
    await e.api.post('/v1/invoices', {
      customer_name: 'A',
      customer_email: 'a@example.com',
      currency: 'USD',
      due_date: '2099-01-01',
      items: [{ description: 'x', quantity: 1, unit_price: 3 }],
    })
  ).body.data;
  await e.api.post(`/v1/invoices/${invoice.id}/send`);
  t.match((await run(['pay', invoice.attributes.payment_url])).stdout, /PAID 3\.00 USD/);

  const link = (await e.api.post('/v1/payment-links', { title: 'L', amount: 4 })).body.data;
  t.match((await run(['pay', link.links.pay])).stdout, /PAID 4\.00 USD/);
  t.match((await run(['pay', link.id], at(e))).stdout, /PAID 4\.00 USD/);
  t.equal((await run(['pay', 'https://example.com/elsewhere'])).code, 2);
  t.equal((await run(['pay', 'what'], at(e))).code, 2);
  t.equal((await run(['pay', s1.id, '--3ds', 'maybe'], at(e))).code, 2);
});

t.test('events: list, filter, --json, resend, --follow', async (t) => {
  const e = await emulator(t, { webhookBackoff: '0,0,0' });
  const { event_id } = await e.trigger('payment.completed', { data: { reference: 'ev-1' } });
  await e.trigger('payment.failed');
  const listed = await run(['events'], at(e));
  t.match(listed.stdout, /payment\.failed[\s\S]*payment\.completed\s+ev-1\s+25\.00 USD\s+no_endpoint/);
  const json = JSON.parse((await run(['events', '--json', '--event', 'payment.completed'], at(e))).stdout);
  t.same(
    json.map((x: { id: string }) => x.id),
    [event_id],
  );
  const resent = await run(['events', 'resend', event_id!], at(e));
  t.equal(resent.code, 0);
  t.match(resent.stdout, new RegExp(`resending payment.completed ${event_id}`));
  t.equal((await run(['events', 'resend', 'nope'], at(e))).code, 1);

  // --follow prints events as they happen; Ctrl+C ends it.
  let triggered = false;
  const followed = await run(['events', '--follow'], at(e), {
    onStdout: (text, child) => {
      if (!triggered && text.includes('following events')) {
        triggered = true;
        void e.trigger('payment.voided');
      }
      // The voided event's own attempt (the authorized event's may come first, in the same write).
      if (/attempt payment\.voided/.test(text)) child.kill('SIGINT');
    },
  });
  t.match(followed.stdout, /payment\.voided[\s\S]*attempt payment\.voided no endpoint -> no_endpoint/);
  t.same([followed.code, followed.signal], [null, 'SIGINT'], 'Ctrl+C ends it as the signal does (a shell reports 130)');
});

t.test('events --follow: payemu gone mid-stream (kill -9) is exit 1, saying so', async (t) => {
  // A stand-in for a payemu killed while the command follows it: the stream is accepted, then
  // the connection drops with no end to the answer.
  const gone = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.write(': keep-alive\n\n', () => res.socket?.destroy());
  });
  await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
  t.teardown(() => gone.close());
  const url = `http://127.0.0.1:${(gone.address() as AddressInfo).port}`;
  const followed = await run(['events', '--follow', '--url', url]);
  t.equal(followed.code, 1);
  t.match(followed.stdout, `following events at ${url}`);
  t.equal(followed.stderr.trim(), `payemu: the connection to ${url} closed before the answer ended`);
});

t.test('events --follow: payemu stopping (its stream ended) is exit 0', async (t) => {
  const stopping = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.end(': keep-alive\n\n');
  });
  await new Promise<void>((resolve) => stopping.listen(0, '127.0.0.1', resolve));
  t.teardown(() => stopping.close());
  const followed = await run(['events', '--follow', '--url', `http://127.0.0.1:${(stopping.address() as AddressInfo).port}`]);
  t.same([followed.code, followed.stderr], [0, '']);
});

t.test('reset: a running emulator, or a data directory when nothing runs', async (t) => {
  const e = await emulator(t);
  await e.trigger('payment.completed');
  await e.globex.post('/v1/sessions', { amount: 1 });
  const res = await run(['reset', '--json'], at(e));
  t.equal(res.code, 0);
  t.match(JSON.parse(res.stdout), { scope: { source: 'acme', mode: 'test' } });
  t.equal((await e.api.get('/v1/payments')).body.meta.total, 0);
  t.equal((await e.api.get('/_payemu/events')).body.events.length, 0);
  const all = await run(['reset', '--all'], at(e));
  t.match(all.stdout, /reset everything: \d+ records removed/);

  const dir = t.testdir();
  const stopped = await emulator(t, { inMemory: false, dataDir: dir });
  await stopped.trigger('payment.completed');
  const held = await run(['reset', '--data', dir, '--url', 'http://127.0.0.1:9']);
  t.equal(held.code, 0, 'a directory in use is not deleted: the payemu holding it is reset through its lock');
  t.match(held.stdout, stopped.url);
  t.ok(fs.existsSync(dir));
  t.equal((await stopped.api.get('/v1/payments')).body.meta.total, 0, 'the holder was reset');
  await stopped.close();
  const deleted = await run(['reset', '--data', dir, '--url', 'http://127.0.0.1:9']);
  t.equal(deleted.code, 0, deleted.stderr);
  t.notOk(fs.existsSync(dir));
});

t.test('exec: env, exit codes, signals, failures', async (t) => {
  const env = await run([
    'exec',
    '--',
    process.execPath,
    '-e',
    'console.log(JSON.stringify([process.env.PAYEMU_URL, process.env.PAYEMU_API_KEY, process.env.PAYEMU_LIVE_API_KEY, process.env.PAYEMU_WEBHOOK_SECRET]))',
  ]);
  t.equal(env.code, 0);
  const [url, key, live, secret] = JSON.parse(env.stdout);
  t.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  t.same([key, live, secret], ['sk_test_payemu_acme', 'sk_live_payemu_acme', 'whsec_payemu_acme']);
  t.match(env.stderr, /payemu listening on http/);

  const script = `fetch(process.env.PAYEMU_URL + '/v1/me', { headers: { Authorization: 'Bearer ' + process.env.PAYEMU_API_KEY } }).then((r) => process.exit(r.status === 200 ? 0 : 9))`;
  t.equal((await run(['exec', '--', process.execPath, '-e', script])).code, 0, 'the command reaches the emulator');
  t.equal((await run(['exec', '--', process.execPath, '-e', 'process.exit(7)'])).code, 7);
  t.equal((await run(['exec', '--', 'sh', '-c', 'kill -TERM $$'])).code, 143, '128 + SIGTERM');
  t.equal((await run(['exec', '--', 'no-such-command-payemu'])).code, 127);
  t.equal((await run(['exec'])).code, 2);

  // SIGINT to payemu exec reaches the command, and the command's exit code comes back.
  const forwarded = await run(
    ['exec', '--', process.execPath, '-e', 'process.on("SIGINT", () => process.exit(42)); console.log("ready"); setInterval(() => {}, 1000)'],
    {},
    {
      onStdout: (text, child) => text.includes('ready') && child.kill('SIGINT'),
    },
  );
  t.equal(forwarded.code, 42);

  const cwd = t.testdir();
  t.equal((await run(['exec', '--', process.execPath, '-e', '0'], {}, { cwd })).code, 0);
  t.notOk(fs.existsSync(path.join(cwd, '.payemu')), 'in memory by default');
});
