import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { startPayemu } from '../helpers/cli.js';
import { codeBlocks, freePort, linkPayemu, ROOT, shAsync, shellCommands } from '../helpers/doc-blocks.js';
import { nodeWithoutCoverage } from '../helpers/plain-node.js';

/**
 * examples/README.md, run as a reader runs it: the app's test through `npm test`, and through
 * `npx payemu exec` on another port, each in a copy of examples/checkout-app whose
 * node_modules/payemu links this checkout (in place of `npm install`, which fetches payemu from
 * the registry: .ci/check-pack installs the packed tarball). Port 3000 and 3100 are a free port.
 * The page's inline try-it-by-hand commands run too. A block added to the page without a step
 * here fails the first test.
 */
const PAGE = path.join(ROOT, 'examples/README.md');
const blocks = codeBlocks(PAGE);
const APP = path.join(ROOT, 'examples/checkout-app');

/** examples/checkout-app copied to a test dir, payemu installed (linked), as `npm install` leaves it. */
function installedApp(t: Test): string {
  const dir = path.join(t.testdir(), 'checkout-app');
  fs.cpSync(APP, dir, { recursive: true });
  return linkPayemu(dir);
}

t.test('the page has the blocks this test runs, in this order', async (t) => {
  t.same(
    blocks.map((b) => b.lang),
    ['sh', 'sh'],
  );
});

t.test('cd examples/checkout-app, npm install, npm test: the three tests pass', async (t) => {
  t.same(shellCommands(blocks[0]!), ['cd examples/checkout-app', 'npm install', 'npm test']);
  // The comment after `npm test` is the app's test script, word for word.
  const comment = /^npm test\s+# (.*)$/m.exec(blocks[0]!.text)?.[1];
  const pkg = JSON.parse(fs.readFileSync(path.join(APP, 'package.json'), 'utf8')) as { scripts: { test: string }; dependencies: Record<string, string> };
  t.equal(comment, pkg.scripts.test);
  t.ok(pkg.dependencies.payemu, 'npm install installs payemu');
  t.ok(fs.existsSync(path.join(ROOT, 'examples/checkout-app')), 'the folder is where the page says');

  const app = installedApp(t);
  // The script as written, with the app's port 3000 made a free one (PORT for the app, the same
  // in --webhook-url): no fixed ports in tests.
  const port = await freePort();
  const scripted = { ...pkg, scripts: { ...pkg.scripts, test: pkg.scripts.test.replace(':3000/', `:${port}/`) } };
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify(scripted));
  const run = await shAsync('npm test -- --test-reporter=tap', app, { PORT: String(port) });
  t.equal(run.code, 0, run.stdout + run.stderr);
  t.match(run.stdout, /^# pass 3$/m);
  t.match(run.stdout, /^# fail 0$/m);
});

t.test('port 3000 taken: PORT=3100 npx payemu exec ... on another port passes too', async (t) => {
  const [exec] = shellCommands(blocks[1]!);
  t.equal(exec, 'PORT=3100 npx payemu exec --webhook-url http://127.0.0.1:3100/webhooks -- node --test');
  const app = installedApp(t);
  const port = await freePort();
  const run = await shAsync(`${exec!.replaceAll('3100', String(port))} --test-reporter=tap`, app);
  t.equal(run.code, 0, run.stdout + run.stderr);
  t.match(run.stdout, /^# pass 3$/m);
  t.match(run.stdout, /^# fail 0$/m);
});

t.test('by hand: payemu start, node server.js, an order paid, the order says paid', async (t) => {
  // The page's inline commands, in order: payemu on a free port instead of 4242 (PAYEMU_URL tells
  // server.js), the app on a free port instead of 3000 (PORT, and the same in --webhook-url); the
  // browser's part is `npx payemu pay <session id>`, as the page says it can be.
  const text = fs.readFileSync(PAGE, 'utf8').replace(/\s+/g, ' ');
  t.match(
    text,
    '`npx payemu start --webhook-url http://127.0.0.1:3000/webhooks` in one terminal, `node server.js` in another, then `curl -s -X POST http://127.0.0.1:3000/orders -d \'{"amount": 25}\'`',
  );
  t.match(text, '`curl -s http://127.0.0.1:3000/orders/<id>` says `paid`');
  const app = installedApp(t);
  const port = await freePort();
  const { url } = await startPayemu(t, ['--in-memory', '--no-ui', '--webhook-url', `http://127.0.0.1:${port}/webhooks`], { cwd: app });
  const server = spawn(...nodeWithoutCoverage(['server.js']), { cwd: app, env: { ...process.env, PORT: String(port), PAYEMU_URL: url } });
  t.teardown(() => void (server.exitCode === null && server.kill('SIGKILL')));
  await new Promise((resolve) => server.stdout.once('data', resolve)); // `shop listening on ...`
  const shop = `http://127.0.0.1:${port}`;
  const created = await shAsync(`curl -s -X POST ${shop}/orders -d '{"amount": 25}'`, app);
  const { order, session_id: session } = JSON.parse(created.stdout) as { order: { id: string }; session_id: string };
  const paid = await shAsync(`npx payemu pay ${session}`, app, { PAYEMU_URL: url });
  t.equal(paid.code, 0, paid.stderr);
  // The webhook reaches the app a moment after the payment: ask until it has (a few tries).
  let status = '';
  for (let i = 0; i < 50 && status !== 'paid'; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    status = (JSON.parse((await shAsync(`curl -s ${shop}/orders/${order.id}`, app)).stdout) as { status: string }).status;
  }
  t.equal(status, 'paid');
});
