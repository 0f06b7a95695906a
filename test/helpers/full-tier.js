/**
 * `npm test`: every test file, with coverage, run from .test-build/ (built-tap.js; `pretest`
 * builds dist/ and that tree first). Arguments go on to tap; name test files as they are in the
 * project to run just them: `npm test -- test/refunds.test.ts`.
 */
import { isTestFile, tapBuilt, testFiles } from './built-tap.js';

const args = process.argv.slice(2);
const files = args.some(isTestFile) ? [] : [...testFiles('src'), ...testFiles('test')];
process.exitCode = tapBuilt([...args, ...files]);
