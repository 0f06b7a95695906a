import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { startPayemu } from '../helpers/cli.js';
import { codeBlocks, freePort, project, ROOT, sh, shAsync, shellCommands } from '../helpers/doc-blocks.js';

/**
 * docs/getting-started.md, run as a newcomer runs it: every code block, in order, as written,
 * except where payemu listens (a free port instead of 4242 and 3000, so runs can share the
 * machine) and `npm install` (the package under test is this checkout, linked in; .ci/check-pack
 * installs the packed tarball). A block added to the page without a step here fails the count.
 */
const PAGE = path.join(ROOT, 'docs/getting-started.md');
const blocks = codeBlocks(PAGE);

t.test('the page has the blocks this test runs, in this order', async (t) => {
  t.same(
    blocks.map((b) => b.lang),
    ['sh', 'sh', 'sh', 'sh', 'sh', 'js', 'js', 'sh'],
  );
  t.same(shellCommands(blocks[0]!), ['npm install --save-dev payemu'], 'step 1: the install (.ci/check-pack installs the tarball)');
});

t.test('step 2: start, create a checkout with curl, pay it with payemu pay, read the payment', async (t) => {
  const cwd = project(t);
  t.same(shellCommands(blocks[1]!), ['npx payemu start']);
  // `npx payemu start` on a free port, without the live view (the test is not a terminal).
  const { url } = await startPayemu(t, ['--in-memory', '--no-ui']);
  const here = (command: string) => command.replaceAll('http://127.0.0.1:4242', url);

  const [create] = shellCommands(blocks[2]!);
  const created = sh(here(create!), cwd);
  t.equal(created.code, 0, created.stderr);
  const session = JSON.parse(created.stdout) as { data: { id: string; attributes: { checkout_url: string; amount: number } } };
  t.match(session.data.id, /^cs_/);
  t.equal(session.data.attributes.amount, 25);

  const [pay] = shellCommands(blocks[3]!);
  t.equal(pay, 'npx payemu pay cs_...');
  const paid = sh(`${pay!.replace('cs_...', session.data.id)} --url ${url}`, cwd);
  t.equal(paid.code, 0, paid.stderr);

  const [read] = shellCommands(blocks[4]!);
  const payment = JSON.parse(sh(here(read!), cwd).stdout) as { data: { attributes: { status: string; amount: string } } };
  t.match(payment.data.attributes, { status: 'PAID', amount: '25.00' });
});

t.test('steps 3 and 4: the webhook handler and its test pass under payemu exec, as written', async (t) => {
  const cwd = project(t);
  for (const block of blocks.slice(5, 7)) {
    const name = /^\/\/ (\S+\.js):/.exec(block.text)?.[1];
    t.ok(name, `block at line ${block.line} names its file`);
    fs.mkdirSync(path.dirname(path.join(cwd, name!)), { recursive: true });
    fs.writeFileSync(path.join(cwd, name!), block.text);
  }
  const [exec] = shellCommands(blocks[7]!);
  t.equal(exec, 'npx payemu exec --webhook-url http://127.0.0.1:3000/webhooks -- node --test');
  const port = await freePort();
  const run = await shAsync(`${exec!.replace(':3000/', `:${port}/`)} --test-reporter=tap`, cwd, { PORT: String(port) });
  const { code } = run;
  const output = run.stdout + run.stderr;
  t.equal(code, 0, output);
  t.match(output, /^# pass 2$/m);
  t.match(output, /^# fail 0$/m);
});
