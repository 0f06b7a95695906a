import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { codeBlocks } from '../helpers/doc-blocks.js';
import { page, ROOT } from '../helpers/doc-run.js';

/**
 * docs/architecture.md's one block, the drawing of the parts: nothing to run. What the test
 * proves: every file and folder it names exists in this checkout (the import rules it draws are
 * checked by the lint's cycle rule and test/layout.test.ts).
 */
const blocks = codeBlocks(page('architecture.md'));

t.test('the page has the blocks this test checks, in this order', async (t) => {
  t.same(
    blocks.map((b) => b.lang),
    [''],
  );
});

t.test('every path the drawing names exists', async (t) => {
  const named = [...blocks[0]!.text.matchAll(/src\/[a-z./<>]+/g)].map((m) => m[0].replace(/\/$/, ''));
  t.ok(named.length >= 14, named.join(' '));
  for (const name of new Set(named)) {
    const real = name.replace('<name>', 'payments');
    t.ok(fs.existsSync(path.join(ROOT, real)), `${name} exists`);
  }
});
