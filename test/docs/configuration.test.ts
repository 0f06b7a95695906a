import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { loadConfig } from '../../src/config/load.js';
import { codeBlocks } from '../helpers/doc-blocks.js';
import { indentedBlocks, page, project, sh } from '../helpers/doc-run.js';

/**
 * docs/configuration.md: its config files load through payemu's loader (the smallest Source as
 * the one Source a config adds), and each sample error is what `payemu start` prints, exit code
 * 2, for the file the page describes (the sample's /work is the test's project folder).
 */
const PAGE = page('configuration.md');
const blocks = codeBlocks(PAGE);
const indented = indentedBlocks(PAGE);

t.test('the page has the blocks this test runs, in this order', async (t) => {
  t.same(
    blocks.map((b) => b.lang),
    ['json', 'json', '', 'json', ''],
  );
  t.same(
    indented.map((b) => b.lang),
    [''],
    'and one under a list item',
  );
});

/** Writes `config` as payemu.config.json in a project and loads it as `payemu start` does. */
function load(t: Test, config: string) {
  const cwd = project(t, { 'payemu.config.json': config });
  return loadConfig(path.join(cwd, 'payemu.config.json'));
}

/** `payemu start` in `cwd` (which holds the config): exit code and stderr, /work for the folder. */
async function refused(cwd: string) {
  const run = await sh('npx payemu start --in-memory --no-ui --port 0', cwd);
  return { code: run.code, stderr: run.stderr.replaceAll(cwd, '/work') };
}

t.test('your own config: the example loads, acme changed and initech added', async (t) => {
  const config = load(t, blocks[0]!.text);
  t.same(
    config.sources.map((s) => [s.slug, s.currency]),
    [
      ['acme', 'EUR'],
      ['globex', 'EUR'],
      ['initech', 'GBP'],
    ],
  );
  t.same(config.sources[0]!.ip_whitelist, ['127.0.0.1']);
  t.equal(config.sources[0]!.test_key, 'sk_test_payemu_acme', 'the fields not given keep the default');
});

t.test('the smallest new Source loads, and without a credential stops payemu as the page shows', async (t) => {
  const source = JSON.parse(blocks[1]!.text) as Record<string, string>;
  const config = load(t, JSON.stringify({ sources: [source] }));
  t.match(config.sources[2], { slug: 'initech', name: 'initech', currency: 'USD', rate_limit_per_minute: 6000, webhook_url: null });

  const { webhook_secret: _, ...partial } = source;
  const cwd = project(t, { 'payemu.config.json': JSON.stringify({ sources: [partial] }) });
  const run = await refused(cwd);
  t.equal(run.code, 2);
  t.equal(run.stderr, blocks[2]!.text);
});

t.test('faults from start: the example loads with its two faults', async (t) => {
  const config = load(t, blocks[3]!.text);
  t.match(config.sources[0]!.faults, [
    { method: 'POST', path: '/v1/payments/*/refunds', status: 503, times: 2, seed: 7 },
    { method: 'POST', path: '/v1/sessions', status: 502, apply: true, probability: 0.2 },
  ]);
});

t.test('validation: a bad test_key, a FIFO and an oversized file, as the samples show', async (t) => {
  const bad = project(t, { 'payemu.config.json': JSON.stringify({ sources: [{ slug: 'acme', test_key: 'sk_live_oops' }] }) });
  const badKey = await refused(bad);
  t.equal(badKey.code, 2);
  t.equal(badKey.stderr, blocks[4]!.text);

  const [fifoLine, bigLine] = indented[0]!.text.split('\n');
  const fifo = project(t);
  execFileSync('mkfifo', [path.join(fifo, 'payemu.config.json')]);
  const fromFifo = await refused(fifo);
  t.equal(fromFifo.code, 2);
  t.equal(fromFifo.stderr, `${fifoLine}\n`);

  const big = project(t);
  fs.writeFileSync(path.join(big, 'payemu.config.json'), `{"sources": []}${' '.repeat(1024 * 1024)}`);
  const fromBig = await refused(big);
  t.equal(fromBig.code, 2);
  t.equal(fromBig.stderr, `${bigLine}\n`);
});
