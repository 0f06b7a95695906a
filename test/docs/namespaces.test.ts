import t from 'tap';
import { codeBlocks, shellCommands } from '../helpers/doc-blocks.js';
import { page, project, sh } from '../helpers/doc-run.js';
import { startPayemu } from '../helpers/cli.js';

/**
 * docs/namespaces.md, run as written against a real payemu (the built binary on a free port):
 * each block's commands in order, in one payemu, and what they print compared with the block's
 * `# ` sample lines.
 */
const blocks = codeBlocks(page('namespaces.md'));

t.test('the page has the blocks this test runs, in this order', async (t) => {
  t.same(
    blocks.map((b) => b.lang),
    ['sh', 'sh', 'sh'],
  );
});

/** The `# ` lines of a block: what its commands print. */
function sample(text: string): string[] {
  return [...text.matchAll(/^# (.*)$/gm)].map((m) => m[1]!);
}

t.test('each block prints its sample, in one payemu, in order', async (t) => {
  const { url } = await startPayemu(t, ['--no-ui']);
  const cwd = project(t);
  for (const [i, block] of blocks.entries()) {
    let out = '';
    for (const command of shellCommands(block)) {
      const run = await sh(command, cwd, { url });
      t.equal(run.code, 0, `block ${i + 1}: ${command.slice(0, 60)}: ${run.stderr}`);
      out += run.stdout.endsWith('\n') || run.stdout === '' ? run.stdout : `${run.stdout}\n`;
    }
    t.same(out.trim().split('\n'), sample(block.text), `block ${i + 1} prints its sample`);
  }
});
