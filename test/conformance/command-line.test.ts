import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { EVENT_NAMES } from '../../src/catalogue.js';
import { verifyWebhook } from '../../src/index.js';
import { runPayemu, startPayemu } from '../helpers/cli.js';
import { client, emulator } from '../helpers/emulator.js';
import { receiver } from '../helpers/receiver.js';

// payemu's command line and library: the readiness line CI scripts parse, --json, --port 0,
// SIGTERM, `payemu exec` (environment and exit codes), `payemu reset`, trigger for every event,
// startEmulator and verifyWebhook. These tests start the real binary: `npm run build` first.
// Each test is titled with the sentence it checks.
t.jobs = 2;
t.setTimeout(240_000);

t.test(
  'Without the UI, the first line on stdout is "payemu listening on http://HOST:PORT", printed only once requests are served; --port 0 picks a free port',
  async (t) => {
    const { proc, url, port, first } = await startPayemu(t, ['--port', '0', '--in-memory'], { cwd: t.testdir() });
    t.equal(first, `payemu listening on http://127.0.0.1:${port}`);
    t.not(port, 0);
    t.equal((await client(url, undefined).get('/_payemu/health')).status, 200, 'served at once');
    t.same(await proc.stop('SIGTERM'), { code: 0, signal: null }, 'SIGTERM stops it cleanly, exit code 0');
  },
);

t.test('With --json, the first line is {"type":"listening","url":"http://HOST:PORT",...}; SIGINT stops it with exit code 0', async (t) => {
  const { proc, url, first } = await startPayemu(t, ['--json', '--in-memory'], { cwd: t.testdir() });
  t.match(JSON.parse(first), { type: 'listening', url });
  t.equal((await client(url, 'sk_test_payemu_acme').get('/v1/me')).status, 200);
  t.same(await proc.stop('SIGINT'), { code: 0, signal: null });
});

t.test(
  'payemu exec runs the command with PAYEMU_URL, PAYEMU_API_KEY, PAYEMU_LIVE_API_KEY, PAYEMU_WEBHOOK_SECRET (of the first Source) set, in memory, and exits with its code (128 + n when it dies of signal n)',
  async (t) => {
    const cwd = t.testdir();
    const script =
      'console.log(JSON.stringify([process.env.PAYEMU_URL, process.env.PAYEMU_API_KEY, process.env.PAYEMU_LIVE_API_KEY, process.env.PAYEMU_WEBHOOK_SECRET]))';
    const env = await runPayemu(t, ['exec', '--', process.execPath, '-e', script], { cwd });
    t.equal(env.code, 0, env.stderr);
    const [url, key, live, secret] = JSON.parse(env.stdout.trim().split('\n').at(-1)!);
    t.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    t.same([key, live, secret], ['sk_test_payemu_acme', 'sk_live_payemu_acme', 'whsec_payemu_acme']);
    t.notOk(fs.existsSync(path.join(cwd, '.payemu')), 'in memory unless --data says otherwise');
    t.equal((await runPayemu(t, ['exec', '--', process.execPath, '-e', 'process.exit(7)'], { cwd })).code, 7, "the command's exit code");
    t.equal((await runPayemu(t, ['exec', '--', 'sh', '-c', 'kill -TERM $$'], { cwd })).code, 143, '128 + 15 for SIGTERM');
  },
);

t.test(
  'payemu reset resets a running emulator; with nothing running, payemu reset --data DIR deletes that data directory; with nothing listening at its URL it is an error and deletes nothing',
  async (t) => {
    const e = await emulator(t);
    await e.trigger('payment.completed');
    const reset = await runPayemu(t, ['reset', '--url', e.url]);
    t.equal(reset.code, 0, reset.stderr);
    t.equal((await e.api.get('/v1/payments')).body.meta.total, 0);
    const dir = t.testdir({ 'keep.txt': 'x' });
    const refused = await runPayemu(t, ['reset', '--url', 'http://127.0.0.1:9']);
    t.not(refused.code, 0, 'nothing listening: an error');
    t.ok(fs.existsSync(dir), 'nothing deleted');
    const stopped = await emulator(t, { inMemory: false, dataDir: path.join(dir, 'data') });
    await stopped.close();
    const deleted = await runPayemu(t, ['reset', '--data', path.join(dir, 'data'), '--url', 'http://127.0.0.1:9']);
    t.equal(deleted.code, 0, deleted.stderr);
    t.notOk(fs.existsSync(path.join(dir, 'data')), 'the data directory is deleted');
    t.ok(fs.existsSync(path.join(dir, 'keep.txt')), 'and nothing else');
  },
);

t.test('payemu trigger <event> for every event in the list', async (t) => {
  const e = await emulator(t);
  for (const event of EVENT_NAMES) {
    const before = (await e.api.get(`/_payemu/events?event=${event}`)).body.events.length;
    await e.trigger(event);
    const after = (await e.api.get(`/_payemu/events?event=${event}`)).body.events.length;
    t.ok(after > before, `${event} happened`);
  }
  const cli = await runPayemu(t, ['trigger', 'invoice.overdue', '--url', e.url]);
  t.equal(cli.code, 0, cli.stderr);
});

t.test(
  'startEmulator(options) returns {url, keys, webhookSecret, clock, trigger, events, close}; verifyWebhook(rawBody, signatureHeader, secret) returns the parsed event and throws WebhookVerificationError when the signature is wrong',
  async (t) => {
    const r = await receiver(t);
    const e = await emulator(t, { webhookUrl: r.url, webhookBackoff: '0,0,0' });
    for (const key of ['url', 'keys', 'webhookSecret', 'clock', 'trigger', 'events', 'close']) t.ok(key in e, key);
    const got = r.next();
    await e.trigger('payment.completed');
    const req = await got;
    const event = verifyWebhook(req.body, String(req.headers['x-webhook-signature']), e.webhookSecret);
    t.match(event, { event: 'payment.completed', data: { status: 'PAID' } });
    t.throws(() => verifyWebhook(req.body, String(req.headers['x-webhook-signature']), 'whsec_wrong'), { name: 'WebhookVerificationError' });
    t.throws(() => verifyWebhook(`${req.body} `, String(req.headers['x-webhook-signature']), e.webhookSecret), { name: 'WebhookVerificationError' });
  },
);

t.test('payemu clock advance <duration>; payemu pay <session id or checkout URL> [--card NUMBER]', async (t) => {
  const e = await emulator(t, { clockStart: '2027-01-10T09:00:00Z', freezeClock: true });
  const advanced = await runPayemu(t, ['clock', 'advance', '2d', '--url', e.url]);
  t.equal(advanced.code, 0, advanced.stderr);
  t.equal((await e.api.get('/_payemu/clock')).body.now, '2027-01-12T09:00:00.000000Z');
  const byId = await e.api.post('/v1/sessions', { amount: 3, reference: 'cli-pay-id' });
  t.equal((await runPayemu(t, ['pay', byId.body.data.id, '--url', e.url])).code, 0);
  t.equal((await e.api.get('/v1/payments/cli-pay-id')).body.data.attributes.status, 'PAID');
  const byUrl = await e.api.post('/v1/sessions', { amount: 3, reference: 'cli-pay-url' });
  const declined = await runPayemu(t, ['pay', byUrl.body.data.attributes.checkout_url, '--card', '4000000000000002', '--url', e.url]);
  t.not(declined.code, 0, 'a decline is not a success');
  t.equal((await e.api.get('/v1/payments/cli-pay-url')).body.data.attributes.status, 'FAILED');
});

t.test('Two live payemu processes never share a directory (the second exits 1 naming the first URL)', async (t) => {
  const cwd = t.testdir();
  const { proc, url } = await startPayemu(t, ['--data', 'store'], { cwd });
  const second = await runPayemu(t, ['start', '--port', '0', '--data', 'store'], { cwd });
  t.equal(second.code, 1);
  t.match(second.stdout + second.stderr, url);
  t.same(await proc.stop('SIGTERM'), { code: 0, signal: null });
});
