/**
 * `npm run test:quick`: the quick tier of the suite, for the edit-run loop (about a minute on
 * two idle cores). The unit tests beside the code (src/) and the contract tests
 * (test/conformance/) that start no process and no browser: those that drive the library in the
 * test's own process, over HTTP. Left out, with the integration tests of test/: a file that
 * imports node:child_process or the helpers that start the binary, node or Chromium
 * (helpers/cli.ts, helpers/plain-node.ts, helpers/browser.ts). `npm test` runs everything.
 *
 * Coverage is off (the floors are for the whole suite), and dist/ is not built: the tests run
 * src/'s modules as built-tap.js writes them, in about a second. Arguments go on to tap:
 * `npm run test:quick -- --reporter=tap`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build, root, tapBuilt, testFiles } from './built-tap.js';

const STARTS_PROCESSES = /from '(?:node:child_process|(?:\.\.?\/)+helpers\/(?:cli|plain-node|browser)\.js)'/;

const quick = [...testFiles('src'), ...testFiles('test/conformance')].filter((file) => !STARTS_PROCESSES.test(fs.readFileSync(path.join(root, file), 'utf8')));
build();
process.exitCode = tapBuilt(['--disable-coverage', ...process.argv.slice(2), ...quick]);
