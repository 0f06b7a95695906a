import type { ServerResponse } from 'node:http';
import t, { type Test } from 'tap';
import { verifyWebhook } from '../src/index.js';
import { PayemuProcess } from './helpers/cli.js';
import { deadUrl, receiver, type Received } from './helpers/receiver.js';

// Many payemu processes, each starting an emulator: the longer timeout of the CLI suites on a loaded machine.
t.setTimeout(240_000);

const SECRET = 'whsec_payemu_acme';

interface Report {
  passed: boolean;
  checks: { name: string; passed: boolean; detail: string }[];
}

async function verify(t: Test, args: string[]) {
  const run = new PayemuProcess(t, ['verify-handler', ...args]);
  const exit = await run.exited;
  return { code: exit.code, stdout: run.stdout, stderr: run.stderr };
}

const status = (res: ServerResponse, code: number, text = '') => {
  res.statusCode = code;
  res.end(text);
};

/** Verifies, remembers each event id, handles payment.completed and acknowledges every other event. */
function correct() {
  const seen = new Set<string>();
  const handled: string[] = [];
  const handler = (req: Received, res: ServerResponse) => {
    let event: { event: string; data: Record<string, unknown> };
    try {
      event = verifyWebhook(req.body, req.headers['x-webhook-signature'] as string | undefined, SECRET);
    } catch (error) {
      return status(res, 400, (error as Error).message);
    }
    const id = String(req.headers['x-webhook-event-id']);
    if (seen.has(id)) return status(res, 200, 'already handled');
    seen.add(id);
    if (event.event === 'payment.completed') handled.push(String(event.data.reference));
    status(res, 204);
  };
  return { handler, handled };
}

/** Accepts whatever comes. */
const careless = (_req: Received, res: ServerResponse) => status(res, 200, 'ok');

/** Verifies the signature, but fails on a repeat and on any event it does not know. */
function halfCorrect() {
  const seen = new Set<string>();
  return (req: Received, res: ServerResponse) => {
    let event: { event: string };
    try {
      event = verifyWebhook(req.body, req.headers['x-webhook-signature'] as string | undefined, SECRET);
    } catch {
      return status(res, 401, 'bad signature');
    }
    if (event.event !== 'payment.completed') return status(res, 500, `no handler for ${event.event}`);
    const id = String(req.headers['x-webhook-event-id']);
    if (seen.has(id)) return status(res, 500, 'duplicate key value violates unique constraint');
    seen.add(id);
    status(res, 200, 'ok');
  };
}

const byName = (report: Report) => Object.fromEntries(report.checks.map((c) => [c.name, c.passed]));

const ALL = ['valid_delivery', 'wrong_signature', 'stale_timestamp', 'body_changed', 'missing_signature', 'duplicate_delivery', 'unhandled_event', 'timeout'];

t.test('a correct handler passes every check: exit 0, a table of PASS lines, and --json', async (t) => {
  const { handler, handled } = correct();
  const r = await receiver(t, handler);
  const table = await verify(t, [r.url]);
  t.equal(table.code, 0, table.stderr);
  for (const name of ALL) t.match(table.stdout, new RegExp(`PASS\\s+${name}\\b`), `${name} passes`);
  t.match(table.stdout, /all 8 checks passed/);
  t.notMatch(table.stdout, /FAIL/);
  // One delivery at a time, each a real payment.completed; the handler acted on two of them
  // (the valid one and the first of the pair), never on a forged or repeated one.
  t.equal(handled.length, 2, `acted on ${handled.join(', ')}`);
  const received = r.received.filter((req) => req.headers['x-webhook-event'] === 'payment.completed');
  const body = JSON.parse(received[0]!.body);
  t.equal(body.event, 'payment.completed');
  t.match(body.data, { payment_id: Number, status: 'PAID', card_last: '4242', currency: String });
  t.ok(
    r.received.some((req) => req.headers['x-webhook-event'] === 'invoice.overdue'),
    'the unhandled event is another event of the contract',
  );

  const json = await verify(t, [r.url, '--json']);
  t.equal(json.code, 0);
  const report = JSON.parse(json.stdout) as Report;
  t.equal(report.passed, true);
  t.same(
    report.checks.map((c) => c.name),
    ALL,
  );
  for (const check of report.checks) t.same(Object.keys(check), ['name', 'passed', 'detail']);
});

t.test('a careless handler that accepts everything fails the signature checks, each saying what a correct one does', async (t) => {
  const r = await receiver(t, careless);
  const json = await verify(t, [r.url, '--json']);
  t.equal(json.code, 1, 'exit 1: a check failed');
  const report = JSON.parse(json.stdout) as Report;
  t.equal(report.passed, false);
  t.same(byName(report), {
    valid_delivery: true,
    wrong_signature: false,
    stale_timestamp: false,
    body_changed: false,
    missing_signature: false,
    duplicate_delivery: true,
    unhandled_event: true,
    timeout: true,
  });
  const detail = (name: string) => report.checks.find((c) => c.name === name)!.detail;
  t.match(detail('wrong_signature'), /expected a 4xx, got 200.*HMAC-SHA256/);
  t.match(detail('stale_timestamp'), /5 minutes/);
  t.match(detail('body_changed'), /raw bytes/);
  t.match(detail('missing_signature'), /X-Webhook-Signature is missing/);

  const table = await verify(t, [r.url]);
  t.equal(table.code, 1);
  t.match(table.stdout, /FAIL\s+wrong_signature\s+.*a correct handler computes HMAC-SHA256/i);
  t.match(table.stdout, /PASS\s+valid_delivery/);
  t.match(table.stdout, /4 of 8 checks failed/);
});

t.test('a half-correct handler (verifies, but 5xx on repeats and unknown events) fails those two', async (t) => {
  const r = await receiver(t, halfCorrect());
  const json = await verify(t, [r.url, '--json', '--secret', SECRET, '--event', 'payment.completed']);
  t.equal(json.code, 1);
  const report = JSON.parse(json.stdout) as Report;
  t.same(byName(report), {
    valid_delivery: true,
    wrong_signature: true,
    stale_timestamp: true,
    body_changed: true,
    missing_signature: true,
    duplicate_delivery: false,
    unhandled_event: false,
    timeout: true,
  });
  const detail = (name: string) => report.checks.find((c) => c.name === name)!.detail;
  t.match(detail('duplicate_delivery'), /got 200 in \d+ ms, then 500.*remembers each X-Webhook-Event-Id/);
  t.match(detail('unhandled_event'), /invoice\.overdue.*got 500.*answers 2xx to an event it does not use/);
  const table = await verify(t, [r.url]);
  t.match(table.stdout, /FAIL\s+duplicate_delivery/);
  t.match(table.stdout, /FAIL\s+unhandled_event/);
  t.match(table.stdout, /2 of 8 checks failed/);
});

t.test('the wrong --secret fails even a correct handler, and another --event grades that event', async (t) => {
  const { handler } = correct();
  const r = await receiver(t, handler);
  const wrong = JSON.parse((await verify(t, [r.url, '--json', '--secret', 'whsec_other'])).stdout) as Report;
  t.equal(byName(wrong).valid_delivery, false);
  const invoice = await verify(t, [r.url, '--json', '--event', 'invoice.paid']);
  t.equal(invoice.code, 0, invoice.stderr);
  t.ok(r.received.some((req) => req.headers['x-webhook-event'] === 'invoice.paid'));
  t.ok(
    r.received.some((req) => req.headers['x-webhook-event'] === 'payment.refunded'),
    'the unhandled event comes from another part of the contract',
  );
});

t.test('an answer later than --timeout fails the timeout check', async (t) => {
  const r = await receiver(t, (req, res) => {
    // The duplicate pair's second copy never gets an answer.
    const id = String(req.headers['x-webhook-event-id']);
    if (r.received.filter((x) => x.headers['x-webhook-event-id'] === id).length === 2) return;
    careless(req, res);
  });
  const json = await verify(t, [r.url, '--json', '--timeout', '300ms']);
  t.equal(json.code, 1);
  const report = JSON.parse(json.stdout) as Report;
  t.equal(byName(report).timeout, false);
  t.equal(byName(report).duplicate_delivery, false);
  t.match(report.checks.find((c) => c.name === 'timeout')!.detail, /1 delivery got no answer within 0.3 s/);
});

t.test('nothing at the URL is exit 3; a URL that is not http(s), an unknown event or a bad --timeout is exit 2', async (t) => {
  const dead = await verify(t, [await deadUrl()]);
  t.equal(dead.code, 3);
  t.match(dead.stderr, /nothing answers at http:\/\/127\.0\.0\.1:\d+\/webhooks \(ECONNREFUSED/);
  const notUrl = await verify(t, ['localhost:3000/webhooks']);
  t.equal(notUrl.code, 2);
  t.match(notUrl.stderr, /not an absolute http/);
  const event = await verify(t, ['http://127.0.0.1:9/x', '--event', 'payment.done']);
  t.equal(event.code, 2);
  t.match(event.stderr, /--event/);
  const timeout = await verify(t, ['http://127.0.0.1:9/x', '--timeout', 'soon']);
  t.equal(timeout.code, 2);
  t.match(timeout.stderr, /--timeout/);
});
