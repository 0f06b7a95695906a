import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { codeBlocks, shellCommands } from '../helpers/doc-blocks.js';
import { page, ROOT } from '../helpers/doc-run.js';

/**
 * docs/performance.md's one block, the bench commands. They are not run here: each takes a
 * minute or more of a quiet machine with wrk and taskset, and measures that machine. What the
 * test proves instead: every command names an npm script of package.json, and every option or
 * variable it passes is one that script's file reads.
 */
const blocks = codeBlocks(page('performance.md'));
const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

t.test('the page has the blocks this test checks, in this order', async (t) => {
  t.same(
    blocks.map((b) => b.lang),
    ['sh'],
  );
});

t.test('the bench commands name real scripts, with options and variables their files read', async (t) => {
  const commands = shellCommands(blocks[0]!);
  t.equal(commands.length, 8);
  for (const command of commands) {
    const match = /^((?:[A-Z_]+=\S+ )*)npm run (\S+)(?: -- (.*))?$/.exec(command);
    t.ok(match, command);
    const [, env, script, args] = match!;
    t.ok(scripts[script!], `${script} is an npm script`);
    const file = /node (?:--expose-gc )?(bench\/\S+\.js)/.exec(scripts[script!]!)?.[1];
    t.ok(file, `${script} runs a bench file`);
    const source = fs.readFileSync(path.join(ROOT, file!), 'utf8');
    for (const name of (env ?? '').split(' ').filter(Boolean)) t.match(source, name.split('=')[0]!, `${file} reads ${name}`);
    for (const option of (args ?? '').split(' ').filter((arg) => arg.startsWith('--'))) t.match(source, option, `${file} reads ${option}`);
  }
});
