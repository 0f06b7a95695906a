/**
 * Runs tap on the built copies of test files (.test-build/, written by scripts/build-tests.js):
 * the JavaScript of src/ and test/, run with no module hook in the test processes, tap's recording
 * hook left out too (without-tap-loader.cjs). On Node 20 a registered hook sends every import
 * of a process through a thread of its own: about half a second of CPU in each test process.
 * Both tiers run this way (full-tier.js for `npm test`, quick-tier.js); `npx tap <file>.ts` still
 * runs the TypeScript itself, through the hooks of ts-register.js (package.json's "tap").
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));
const BUILT = '.test-build';
const TEST_FILE = /\.test\.tsx?$/;
// By its absolute path: the tests' children that take their execArgv may run in another folder.
const preload = fileURLToPath(new URL('./without-tap-loader.cjs', import.meta.url));

/** The test files (TypeScript) under `dir`, relative to the root, sorted. */
export function testFiles(dir) {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => TEST_FILE.test(name) && !name.startsWith(`fixtures${path.sep}`))
    .map((name) => path.join(dir, name))
    .sort();
}

/** Whether an argument names a test file (`test/refunds.test.ts`). */
export const isTestFile = (arg) => TEST_FILE.test(arg) && !arg.startsWith('-');

/** Writes .test-build/ afresh from src/ and test/ (about a second). */
export function build() {
  const run = spawnSync(process.execPath, ['scripts/build-tests.js'], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}

/**
 * tap with `args`, each test file in them replaced by its built copy; answers tap's exit code.
 * The --node-arg replaces the config's (the TypeScript hooks), which the built tree does not need.
 */
export function tapBuilt(args) {
  const built = args.map((arg) => (isTestFile(arg) ? path.join(BUILT, path.normalize(arg).replace(TEST_FILE, '.test.js')) : arg));
  const run = spawnSync('npx', ['--no-install', 'tap', `--node-arg=--require=${preload}`, ...built], { cwd: root, stdio: 'inherit' });
  return run.status ?? 1;
}
