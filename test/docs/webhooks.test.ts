import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { codeBlocks } from '../helpers/doc-blocks.js';
import { page, parseSample, project, sh, shape } from '../helpers/doc-run.js';
import { emulator } from '../helpers/emulator.js';
import { receiver } from '../helpers/receiver.js';

/**
 * docs/webhooks.md against real deliveries of one payemu (the library, in this process) to a
 * receiver of the test's: the request sample is what the receiver gets, line by line; the
 * verifyWebhook fragment verifies a delivery received; the attempts sample and each payload
 * sample have the shape (keys and value types; `metadata` is the caller's own) of the real ones.
 */
const blocks = codeBlocks(page('webhooks.md'));

t.test('the page has the blocks this test runs, in this order', async (t) => {
  t.same(
    blocks.map((b) => b.lang),
    ['', 'js', 'json', 'json', 'json', 'json', 'json'],
  );
});

/** A payload's shape, its metadata (whatever the caller gave) left as an object. */
function payloadShape(payload: unknown): unknown {
  const { event, data } = payload as { event: string; data: Record<string, unknown> };
  return shape({ event, data: { ...data, metadata: {} } });
}

t.test('one payemu, its deliveries against the samples', async (t) => {
  const hook = await receiver(t, (_req, res) => res.end('ok'));
  const e = await emulator(t, { webhookUrl: hook.url, webhookBackoff: '0,0,0' });
  const payloads = new Map<string, unknown>();
  for (const name of ['payment.completed', 'payment.refunded', 'payment.failed', 'recurring.charged', 'invoice.paid'] as const) {
    const result = await e.trigger(name);
    payloads.set(name, e.events.get(result.event_id!)!.payload);
  }
  await e.idle();

  await t.test('the request: the lines of the sample', async (t) => {
    const first = hook.received[0]!;
    const [request, ...rest] = blocks[0]!.text.trimEnd().split('\n');
    t.equal(request, 'POST <endpoint>');
    const headers = rest.slice(0, rest.indexOf(''));
    t.same(
      headers.map((line) => line.split(':')[0]),
      ['Content-Type', 'User-Agent', 'X-Webhook-Signature', 'X-Webhook-Event', 'X-Webhook-Event-Id'],
    );
    t.equal(first.headers['content-type'], 'application/json');
    t.equal(first.headers['user-agent'], 'payemu-webhooks');
    t.match(first.headers['x-webhook-signature'], /^t=\d+,v1=[0-9a-f]{64}$/);
    t.equal(first.headers['x-webhook-event'], 'payment.completed');
    t.match(first.headers['x-webhook-event-id'], /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    t.equal(rest.at(-1), '{"event":"payment.completed","data":{...}}');
    t.match(first.body, /^\{"event":"payment\.completed","data":\{.*\}\}$/);
  });

  await t.test('verifyWebhook: the fragment verifies a delivery as received', async (t) => {
    const cwd = project(t);
    const first = hook.received[0]!;
    const code = [
      `const rawBody = ${JSON.stringify(first.body)};`,
      `const req = { headers: ${JSON.stringify(first.headers)} };`,
      blocks[1]!.text,
      'console.log(event.event, event.data.reference);',
    ].join('\n');
    fs.writeFileSync(path.join(cwd, 'verify.js'), code);
    const run = await sh('node verify.js', cwd);
    t.equal(run.code, 0, run.stderr);
    t.equal(run.stdout, `payment.completed ${(payloads.get('payment.completed') as { data: { reference: string } }).data.reference}\n`);
  });

  await t.test('the attempts sample: the fields of a real attempt', async (t) => {
    const sample = (parseSample(`{${blocks[2]!.text}}`) as { attempts: Record<string, unknown>[] }).attempts;
    const attempt = e.events.list()[0]!.attempts[0]!;
    t.same(Object.keys(sample[0]!), Object.keys(attempt), 'an interrupted attempt has every field');
    t.same(shape(sample[1]), shape({ ...attempt }), 'a succeeded one, their types');
    t.match(attempt, { status: 200, response_body: 'ok', state: 'succeeded', chaos: null });
  });

  await t.test('the payload samples: the shapes of real payloads', async (t) => {
    const samples = blocks
      .slice(3)
      .flatMap((block) => block.text.trim().split('\n'))
      .map((line) => JSON.parse(line) as { event: string });
    t.same(
      samples.map((s) => s.event),
      ['payment.completed', 'payment.refunded', 'payment.failed', 'recurring.charged', 'invoice.paid'],
    );
    for (const sample of samples) t.same(payloadShape(sample), payloadShape(payloads.get(sample.event)), sample.event);
  });
});
