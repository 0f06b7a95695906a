/**
 * `npm run test:quick`: the quick tier of the suite, for the edit-run loop (about a minute on
 * two idle cores). The unit tests beside the code (src/) and the contract tests
 * (test/conformance/) that start no process and no browser: those that drive the library in the
 * test's own process, over HTTP. Left out, with the integration tests of test/: a file that
 * imports node:child_process or the helpers that start the binary, node or Chromium
 * (helpers/cli.ts, helpers/plain-node.ts, helpers/browser.ts). `npm test` runs everything.
 *
 * Coverage is off (the floors are for the whole suite), and nothing is built: the tests run the
 * TypeScript in src/. Arguments go on to tap: `npm run test:quick -- --reporter=tap`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const STARTS_PROCESSES = /from '(?:node:child_process|(?:\.\.?\/)+helpers\/(?:cli|plain-node|browser)\.js)'/;

/** The test files under `dir` (relative to the root), sorted. */
function testFiles(dir) {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => path.join(dir, name))
    .sort();
}

const quick = [...testFiles('src'), ...testFiles('test/conformance')].filter((file) => !STARTS_PROCESSES.test(fs.readFileSync(path.join(root, file), 'utf8')));
const run = spawnSync('npx', ['--no-install', 'tap', '--disable-coverage', ...process.argv.slice(2), ...quick], { cwd: root, stdio: 'inherit' });
process.exitCode = run.status ?? 1;
