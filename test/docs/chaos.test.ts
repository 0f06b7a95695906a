import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import t, { type Test } from 'tap';
import { parse } from 'yaml';
import { verifyWebhook } from '../../src/index.js';
import { startPayemu } from '../helpers/cli.js';
import { codeBlocks, shellCommands } from '../helpers/doc-blocks.js';
import { client } from '../helpers/emulator.js';
import { page, project, sh } from '../helpers/doc-run.js';
import { receiver } from '../helpers/receiver.js';

/**
 * docs/chaos.md, run as written: each recipe's commands against a real payemu (a free port
 * instead of 4242, the test's receiver instead of :3000, `--no-ui` where the page starts one in
 * the background), its sample outputs compared with what the commands print, the library
 * fragment run inside a test that supplies its receiver, and the GitHub Actions steps run as
 * shell commands against a stand-in app.
 */
const blocks = codeBlocks(page('chaos.md'));

t.test('the page has the blocks this test runs, in this order', async (t) => {
  t.same(
    blocks.map((b) => b.lang),
    ['sh', 'sh', 'sh', 'sh', 'js', 'sh', 'sh', '', 'yaml'],
  );
});

/** The `{status, chaos}` lines jq prints (pretty or compact), as objects. */
function jqObjects(out: string): unknown[] {
  const text = out.trim();
  return text === '' ? [] : (JSON.parse(`[${text.replace(/\}\s*\{/g, '},{')}]`) as unknown[]);
}

/** The `# {...}` sample lines of a block, as objects. */
function sampleObjects(text: string): unknown[] {
  return [...text.matchAll(/^# (\{.*?\})/gm)].map((m) => JSON.parse(m[1]!) as unknown);
}

/**
 * Waits until the newest event has `count` attempts, asking the control plane over HTTP: the
 * waiting is the test's, not the page's, and a poll through `npx payemu events` cost 0.6 s of CPU.
 */
async function attempts(url: string, count: number): Promise<void> {
  const payemu = client(url, 'sk_test_payemu_acme');
  for (let i = 0; i < 200; i++) {
    const events = JSON.parse((await payemu.get('/_payemu/events')).text) as { events: { attempts: unknown[] }[] };
    if ((events.events[0]?.attempts.length ?? 0) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no event with ${count} attempts`);
}

/** A webhook handler as the page asks for: verifies, refuses with 400, acts once per event id. */
async function app(t: Test, first = 204): Promise<{ url: string; acted: string[] }> {
  const seen = new Set<string>();
  const acted: string[] = [];
  const server = http.createServer((req, res) => {
    if (req.url === '/health') return void res.end('ok');
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      try {
        verifyWebhook(raw, req.headers['x-webhook-signature'] as string | undefined, 'whsec_payemu_acme');
      } catch {
        return void res.writeHead(400).end();
      }
      const id = String(req.headers['x-webhook-event-id']);
      if (seen.has(id)) return void res.writeHead(200).end();
      seen.add(id);
      acted.push(id);
      res.writeHead(first).end();
    });
  });
  // On localhost, as the page's commands reach it.
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  server.unref();
  return { url: `http://localhost:${(server.address() as AddressInfo).port}`, acted };
}

t.test('retry with idempotency: the fault answers 503 after doing the work, the retry replays it', async (t) => {
  const cwd = project(t);
  const [start, fault] = shellCommands(blocks[0]!);
  t.equal(start, 'npx payemu start --in-memory &', 'started in the background: here on a free port, without the live view');
  const { url } = await startPayemu(t, ['--in-memory', '--no-ui'], { cwd });
  const added = await sh(fault!, cwd, { url });
  t.equal(added.code, 0, added.stderr);
  t.match(added.stdout, /answer 503, after running the request\s+hits 0\/1/);

  const [key, first, second, list] = shellCommands(blocks[1]!);
  const made = await sh(`${key!}; printf %s "$KEY"`, cwd);
  t.equal(made.code, 0, made.stderr);
  t.match(made.stdout, /^[0-9a-f-]{36}$/, 'a UUID');
  const env = { KEY: made.stdout };
  const lost = JSON.parse((await sh(first!, cwd, { url, env })).stdout) as { errors: { status: string; detail: string }[] };
  t.equal(lost.errors[0]!.status, '503');
  t.match(lost.errors[0]!.detail, /the request was carried out/);
  const replayed = JSON.parse((await sh(second!, cwd, { url, env })).stdout) as { data: { id: string } };
  t.match(replayed.data.id, /^cs_/);
  const third = JSON.parse((await sh(second!, cwd, { url, env })).stdout) as { data: { id: string } };
  t.equal(third.data.id, replayed.data.id, 'the same session every time: one was made');
  t.match((await sh(list!, cwd, { url })).stdout, /^no faults$/m, 'the fault has retired');
});

t.test('idempotent webhook handling: duplicated and delayed deliveries, as the event log shows them', async (t) => {
  const cwd = project(t);
  const hook = await receiver(t, (_req, res) => res.end('ok'));
  const [start, set] = shellCommands(blocks[2]!);
  t.match(start, /^npx payemu start --webhook-url http:\/\/localhost:3000\/webhooks\s+--webhook-chaos duplicate=1,delay=2s,seed=7$/);
  const args = start!.replace('npx payemu start ', '').replace('http://localhost:3000/webhooks', hook.url).split(/\s+/);
  const { url } = await startPayemu(t, [...args, '--in-memory', '--no-ui'], { cwd });
  const again = await sh(set!, cwd, { url });
  t.equal(again.code, 0, again.stderr);
  t.match(again.stdout, /duplicate=1,delay=2s,seed=7/);

  t.equal((await sh('npx payemu trigger payment.completed', cwd, { url })).code, 0);
  await attempts(url, 2);
  const [events] = shellCommands(blocks[3]!);
  const out = await sh(events!, cwd, { url });
  t.equal(out.code, 0, out.stderr);
  t.same(jqObjects(out.stdout), sampleObjects(blocks[3]!.text), 'the attempts the page shows');
  const ids = hook.received.map((r) => r.headers['x-webhook-event-id']);
  t.equal(ids.length, 2);
  t.equal(ids[0], ids[1], 'the copy is the same event id');
  t.equal(hook.received[0]!.body, hook.received[1]!.body, 'and the same body');
});

t.test('idempotent webhook handling in a library test: the fragment, given its receiver', async (t) => {
  const cwd = project(t);
  const block = blocks[4]!;
  t.match(block.text, /receiverUrl/);
  // The fragment uses `receiverUrl` and asserts in a comment: the harness supplies the receiver
  // (an idempotent handler) and makes that assertion.
  const file = [
    "import http from 'node:http';",
    "import assert from 'node:assert/strict';",
    "import { startEmulator } from 'payemu';",
    'const deliveries = [];',
    'const acted = new Set();',
    'const server = http.createServer((req, res) => {',
    "  deliveries.push(req.headers['x-webhook-event-id']);",
    "  acted.add(req.headers['x-webhook-event-id']);",
    "  req.resume().on('end', () => res.writeHead(204).end());",
    '});',
    "await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));",
    "const receiverUrl = 'http://127.0.0.1:' + server.address().port + '/webhooks';",
    block.text,
    'assert.equal(deliveries.length, 2);',
    'assert.equal(acted.size, 1);',
    'await payemu.close();',
    'server.close();',
    "console.log('acted once on 2 deliveries');",
  ].join('\n');
  fs.writeFileSync(path.join(cwd, 'chaos.js'), file);
  const run = await sh('node chaos.js', cwd);
  t.equal(run.code, 0, run.stderr);
  t.equal(run.stdout, 'acted once on 2 deliveries\n');
});

t.test('verifying signatures: stale and badly signed first attempts are refused, the retries go through', async (t) => {
  const cwd = project(t);
  const handler = await app(t, 200);
  const { url } = await startPayemu(t, ['--in-memory', '--no-ui', '--webhook-url', `${handler.url}/webhooks`, '--webhook-backoff', '0,0,0'], { cwd });
  const [stale, trigger, events, bad, clear] = shellCommands(blocks[5]!);
  t.equal((await sh(stale!, cwd, { url })).code, 0);
  t.equal((await sh(trigger!, cwd, { url })).code, 0);
  await attempts(url, 2);
  const out = await sh(events!, cwd, { url });
  t.same(jqObjects(out.stdout), sampleObjects(blocks[5]!.text), 'refused, then the retry');

  t.equal((await sh(bad!, cwd, { url })).code, 0);
  t.equal((await sh(trigger!, cwd, { url })).code, 0);
  await attempts(url, 2);
  t.same(jqObjects((await sh(events!, cwd, { url })).stdout), [
    { status: 400, chaos: 'bad_signature' },
    { status: 200, chaos: null },
  ]);
  t.equal((await sh(clear!, cwd, { url })).code, 0);
  t.equal((await sh('npx payemu webhook-chaos show', cwd, { url })).stdout, 'webhook chaos: off\n', 'cleared');
  t.equal(handler.acted.length, 2, 'acted on each event once');
});

t.test('verify-handler in CI: the command, its output and the GitHub Actions steps', async (t) => {
  const cwd = project(t);
  const handler = await app(t);
  const port = new URL(handler.url).port;
  const [npmStart, verify] = shellCommands(blocks[6]!);
  t.equal(npmStart, 'npm start &', 'the app: here the test starts a handler that verifies');
  const graded = await sh(verify!.replace(':3000/', `:${port}/`), cwd, { env: { PAYEMU_WEBHOOK_SECRET: 'whsec_payemu_acme' } });
  t.equal(graded.code, 0, graded.stdout + graded.stderr);
  // The sample, with the port and the milliseconds normalized.
  const norm = (text: string) => text.replace(/localhost:\d+/g, 'localhost:PORT').replace(/\d+ ms/g, 'N ms');
  t.equal(norm(graded.stdout), norm(blocks[7]!.text));

  const steps = (parse(blocks[8]!.text) as { run: string }[]).map((step) => step.run);
  t.equal(steps[0], 'npm start &');
  for (const step of steps.slice(1)) {
    const run = await sh(step.replaceAll(':3000/', `:${port}/`), cwd);
    t.equal(run.code, 0, `${step}\n${run.stdout}${run.stderr}`);
  }
});
