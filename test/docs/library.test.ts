import fs from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { codeBlocks } from '../helpers/doc-blocks.js';
import { page, project, sh } from '../helpers/doc-run.js';

/**
 * docs/library.md, run against this checkout as `payemu` (linked into a project's node_modules):
 * the complete test under `node --test` as written; the fragments inside a module that imports
 * what they use and makes the state they read (a paid payment and its refund for the journal
 * fragment, a signed delivery for verifyWebhook's), each asserting what the page's comments say.
 */
const blocks = codeBlocks(page('library.md'));

t.test('the page has the blocks this test runs, in this order', async (t) => {
  t.same(
    blocks.map((b) => b.lang),
    ['js', 'js', 'js', 'js'],
  );
});

/** Writes `code` to `name` in a project and runs it with node (`args` first); returns its run. */
async function run(t: Test, name: string, code: string, args: string[] = []) {
  const cwd = project(t);
  fs.writeFileSync(path.join(cwd, name), code);
  return sh(['node', ...args, name].join(' '), cwd);
}

/** Runs a fragment inside `lines` (imports, set-up, assertions) and checks it got to the end. */
async function fragment(t: Test, name: string, lines: string[]) {
  const result = await run(t, name, [...lines, "console.log('ok');"].join('\n'));
  t.equal(result.code, 0, result.stderr);
  t.equal(result.stdout, 'ok\n');
}

t.test('a complete test: passes under node --test, as written', async (t) => {
  const result = await run(t, 'paid.test.js', blocks[0]!.text, ['--test', '--test-reporter=tap']);
  t.equal(result.code, 0, result.stdout + result.stderr);
  t.match(result.stdout, /^# pass 1$/m);
  t.match(result.stdout, /^# fail 0$/m);
});

t.test('time and events: the fragment runs, and sees the events it made', async (t) => {
  await fragment(t, 'time.js', [
    "import assert from 'node:assert/strict';",
    "import { startEmulator } from 'payemu';",
    blocks[1]!.text,
    "assert.ok(seen.includes('invoice.overdue'), seen.join());",
    "assert.ok(seen.includes('payment.completed'), seen.join());",
    "assert.equal(result.event, 'invoice.overdue');",
  ]);
});

t.test('the request journal: the fragment, after one refund of 42 and one refused request', async (t) => {
  await fragment(t, 'journal.js', [
    "import assert from 'node:assert/strict';",
    "import { startEmulator } from 'payemu';",
    'const payemu = await startEmulator();',
    "const headers = { Authorization: 'Bearer ' + payemu.keys.test, 'Content-Type': 'application/json' };",
    "const post = (p, body, more = {}) => fetch(payemu.url + p, { method: 'POST', headers: { ...headers, ...more }, body: JSON.stringify(body) });",
    "const session = await (await post('/v1/sessions', { amount: 42, reference: 'order-1' })).json();",
    "await post('/_payemu/sessions/' + session.data.id + '/complete', { card_number: '4242 4242 4242 4242' });",
    "const refund = await post('/v1/payments/order-1/refunds', { amount: 42 }, { 'Idempotency-Key': 'refund-order-1' });",
    'assert.equal(refund.status, 201, await refund.text());',
    "assert.equal((await post('/v1/sessions', { amount: -1 })).status, 422);",
    blocks[2]!.text,
    'assert.equal(refused.length, 1);',
    "assert.ok(refused[0].response_body.errors, 'the error it got');",
    'assert.equal(payemu.requests().total, 0);',
    'await payemu.close();',
  ]);
});

t.test('verifyWebhook: the fragment verifies a signed delivery, and reports a forged one', async (t) => {
  // The fragment reads `rawBody` and `req` and logs nothing on success: the harness signs a
  // delivery as payemu does, runs the fragment on it, then on a tampered copy.
  const body = blocks[3]!.text.replace(/^import .*\n/m, '').replace('const event =', 'event =');
  const code = [
    "import crypto from 'node:crypto';",
    "import assert from 'node:assert/strict';",
    blocks[3]!.text.match(/^import .*$/m)![0],
    "process.env.PAYEMU_WEBHOOK_SECRET = 'whsec_payemu_acme';",
    "const payload = JSON.stringify({ event: 'payment.completed', data: { payment_id: 'pay_1', reference: 'order-1', amount: 42 } });",
    'const t = Math.floor(Date.now() / 1000);',
    "const v1 = crypto.createHmac('sha256', process.env.PAYEMU_WEBHOOK_SECRET).update(t + '.' + payload).digest('hex');",
    'let event;',
    'for (const rawBody of [payload, payload.replace("42", "43")]) {',
    "  const req = { headers: { 'x-webhook-signature': 't=' + t + ',v1=' + v1 } };",
    body,
    '}',
    "assert.equal(event.event, 'payment.completed');",
  ].join('\n');
  const result = await run(t, 'verify.js', code);
  t.equal(result.code, 0, result.stderr);
  t.match(result.stdout, /^signature_mismatch /, 'the tampered copy: its reason and message');
  t.equal(result.stdout.split('\n').filter(Boolean).length, 1, 'the genuine one logs nothing');
});
