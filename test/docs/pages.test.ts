import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { codeBlocks } from '../helpers/doc-blocks.js';

/**
 * Every page users read (the README, docs/, the examples' README) that holds a code block has
 * its test here, test/docs/<page>.test.ts, which runs its blocks: a new page with commands or
 * code and no test fails this one.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const pages = [
  'README.md',
  'examples/README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const testOf = (page: string) => (page === 'README.md' ? 'readme' : page === 'examples/README.md' ? 'examples-readme' : path.basename(page, '.md'));

t.test('every page with a code block has a test that runs its blocks', async (t) => {
  for (const page of pages) {
    const blocks = codeBlocks(path.join(ROOT, page)).length;
    if (blocks === 0) continue;
    const file = `test/docs/${testOf(page)}.test.ts`;
    t.ok(fs.existsSync(path.join(ROOT, file)), `${page} (${blocks} blocks): ${file}`);
  }
});
