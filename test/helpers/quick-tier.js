/**
 * `npm run test:quick`: the quick tier of the suite, for the edit-run loop (under a minute on
 * two idle cores). The unit tests beside the code (src/) and the contract tests
 * (test/conformance/) that start no process and no browser: those that drive the library in the
 * test's own process, over HTTP. Left out, with the integration tests of test/: a file that
 * imports node:child_process or the helpers that start the binary, node or Chromium
 * (`inProcess` in built-tap.js). `npm test` runs everything.
 *
 * Coverage is off (the floors are for the whole suite), and dist/ is not built: the tests run
 * src/'s modules as built-tap.js writes them, in about a second, a dozen or so files to a process
 * (`bundles`). Arguments go on to tap: `npm run test:quick -- --reporter=tap`.
 */
import { build, bundles, inProcess, tapBuilt, testFiles } from './built-tap.js';

/** Twice as many processes as tap runs at once (its `jobs`), so that they end at about the same time. */
const BUNDLES = 6;

const quick = [...testFiles('src'), ...testFiles('test/conformance')].filter(inProcess);
build();
process.exitCode = tapBuilt(['--disable-coverage', ...process.argv.slice(2), ...bundles(quick, BUNDLES)]);
