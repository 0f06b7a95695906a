/**
 * `npm test`: every test file, with coverage, run from .test-build/ (built-tap.js; `pretest`
 * builds dist/ and that tree first). The files that start no process of their own run a dozen or
 * so to a process (`bundles`); the others one to a process each. Arguments go on to tap; name
 * test files as they are in the project to run just them, each alone: `npm test -- test/refunds.test.ts`.
 */
import { bundles, inProcess, isTestFile, tapBuilt, testFiles } from './built-tap.js';

/** How many processes the files that start none share: about a dozen files each. */
const BUNDLES = 12;

const args = process.argv.slice(2);
let files = [];
if (!args.some(isTestFile)) {
  const all = [...testFiles('src'), ...testFiles('test')];
  const shared = new Set(all.filter(inProcess));
  files = [...bundles([...shared], BUNDLES), ...all.filter((file) => !shared.has(file))];
}
process.exitCode = tapBuilt([...args, ...files]);
