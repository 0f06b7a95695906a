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

/** A test file that imports node:child_process or a helper that starts the binary, node or Chromium. */
const STARTS_PROCESSES = /from '(?:node:child_process|(?:\.\.?\/)+helpers\/(?:cli|plain-node|browser)\.js)'/;

/** Whether a test file (relative to the root) runs in its own process only: it starts no other. */
export const inProcess = (file) => !STARTS_PROCESSES.test(fs.readFileSync(path.join(root, file), 'utf8'));

/**
 * Writes `count` bundles into .test-build/bundles/ (after `build()`), each a test file that
 * imports some of `files` (TypeScript test files, relative to the root, that start no process:
 * `inProcess`), in their order, so that they run in one test process; answers their paths.
 *
 * Why: tap runs each test file in a process of its own, and a process costs about 0.7 s of CPU
 * before its first test (node, tap, coverage), more with the emulator's modules it loads again.
 * The files are shared out by size, the largest first to the bundle with the fewest bytes so far,
 * so that the bundles take about as long as each other. A bundle's failures name their test and
 * its file (stack traces lead to the TypeScript); `npm test -- test/x.test.ts` runs one file alone.
 */
export function bundles(files, count) {
  const groups = Array.from({ length: Math.min(count, files.length) }, () => ({ bytes: 0, files: [] }));
  const sized = files.map((file) => ({ file, bytes: fs.statSync(path.join(root, file)).size }));
  for (const { file, bytes } of sized.sort((a, b) => b.bytes - a.bytes)) {
    const lightest = groups.reduce((a, b) => (b.bytes < a.bytes ? b : a));
    lightest.bytes += bytes;
    lightest.files.push(file);
  }
  const dir = path.join(BUILT, 'bundles');
  fs.mkdirSync(path.join(root, dir), { recursive: true });
  return groups.map((group, i) => {
    const name = path.join(dir, `${String(i + 1).padStart(2, '0')}.test.js`);
    const imports = group.files.sort().map((file) => `import '../${builtName(file).split(path.sep).join('/')}';`);
    fs.writeFileSync(path.join(root, name), `// Written by test/helpers/built-tap.js: these test files run in one process.\n${imports.join('\n')}\n`);
    return name;
  });
}

/** The built copy of a TypeScript test file, relative to .test-build/. */
const builtName = (file) => path.normalize(file).replace(TEST_FILE, '.test.js');

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
  const built = args.map((arg) => (isTestFile(arg) ? path.join(BUILT, builtName(arg)) : arg));
  const run = spawnSync('npx', ['--no-install', 'tap', `--node-arg=--require=${preload}`, ...built], { cwd: root, stdio: 'inherit' });
  return run.status ?? 1;
}
