import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import t, { type Test } from 'tap';
import { wallClock } from '../clock/clock.js';
import { codeCacheDir } from './cached-script.js';

// Each run is a process of its own, as every start is: within one process V8 keeps what it
// compiled in memory and would use that instead of the cache, which the test means to see.
// Run from the TypeScript or from its build (.test-build/, `npm test`), as this file itself is.
const MODULE = new URL(`./cached-script${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href;
const LOADER = process.execArgv.filter((a) => a.includes('ts-register')); // the tests' TypeScript loader (test/helpers/ts-register.js), for the .ts

interface Run {
  state: string;
  file?: string;
  saved: boolean;
  savedAgain: boolean;
  answer: number;
  double: number;
  url: string;
  filename: string;
  neighbour: number;
  required: string;
}

function run(url: URL, cache: string | undefined, options: { save?: boolean } = {}): Run {
  const code = `
    const { runCachedScript } = await import(${JSON.stringify(MODULE)});
    const run = runCachedScript(new URL(${JSON.stringify(url.href)}), ${JSON.stringify(cache) ?? 'undefined'}, (s) => import(s));
    const e = run.exports;
    const save = ${options.save !== false};
    const saved = save && run.save();
    console.log(JSON.stringify({
      state: run.state, file: run.file, saved, savedAgain: save && run.save(),
      answer: e.answer, double: e.double(21), url: e.url, filename: e.filename,
      neighbour: (await e.neighbour()).x, required: e.required(),
    }));`;
  const child = spawnSync(process.execPath, [...LOADER, '--input-type=module', '-e', code], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`the run ended with ${child.status ?? child.signal}: ${child.stderr}`);
  return JSON.parse(child.stdout) as Run;
}

// A script as scripts/build-cli.js writes one: a function of CommonJS's names and two more.
const SCRIPT = `(function (exports, require, module, __filename, __dirname, __payemuUrl, __payemuImport) {
exports.answer = 42;
exports.url = __payemuUrl;
exports.double = (n) => n * 2;
exports.neighbour = () => __payemuImport('./neighbour.mjs');
exports.required = () => require('./data.json').name;
exports.filename = __filename;
})`;

function scriptDir(t: Test): { url: URL; cache: string } {
  const dir = t.testdir({ 'cli.cjs': SCRIPT, 'neighbour.mjs': 'export const x = 7;\n', 'data.json': '{"name":"beside"}' });
  return { url: pathToFileURL(path.join(dir, 'cli.cjs')), cache: path.join(dir, 'cache') };
}

t.test('the first run writes the cache, the next uses it; the script runs the same either way', async (t) => {
  const { url, cache } = scriptDir(t);
  const first = run(url, cache);
  t.equal(first.state, 'absent');
  t.match(first, { answer: 42, double: 42, neighbour: 7, required: 'beside' }, 'its exports and functions work');
  t.equal(first.url, url.href, '__payemuUrl is the script file URL (what import.meta.url was)');
  t.equal(first.filename, fileURLToPath(url));
  t.ok(first.saved, 'written');
  t.notOk(first.savedAgain, 'once only');
  t.equal(path.dirname(first.file!), cache);
  t.equal(fs.statSync(first.file!).mode & 0o777, 0o600, 'readable by its owner only');
  t.equal(fs.statSync(cache).mode & 0o777, 0o700);
  t.same(fs.readdirSync(cache), [path.basename(first.file!)], 'no temporary file left');

  const second = run(url, cache);
  t.equal(second.state, 'used');
  t.match(second, { answer: 42, double: 42, neighbour: 7, required: 'beside' });
  t.notOk(second.saved, 'a cache used as it was is not written again');
});

t.test('a damaged cache is never given to V8 (it would crash the process): the script compiles, and the cache is written again', async (t) => {
  const { url, cache } = scriptDir(t);
  const file = run(url, cache).file!;
  const good = fs.readFileSync(file);

  // A byte changed is a byte flipped: one set to a fixed value was, one run in 256, already that value.
  const flipped = (b: Buffer, at: number) => {
    const copy = Buffer.from(b);
    copy[at] = copy[at]! ^ 0xff;
    return copy;
  };
  const damages: [string, (b: Buffer) => Buffer][] = [
    ['a byte changed in the compiled code', (b) => flipped(b, b.length >> 1)],
    ['a byte changed in the checksum', (b) => flipped(b, 4)],
    ['cut short', (b) => b.subarray(0, b.length - 100)],
    ['the header only', (b) => b.subarray(0, 8)],
    ['empty', () => Buffer.alloc(0)],
    ['another format', (b) => Buffer.concat([Buffer.from('XXXX'), b.subarray(4)])],
  ];
  for (const [what, damage] of damages) {
    fs.writeFileSync(file, damage(good));
    const again = run(url, cache);
    t.equal(again.state, 'damaged', what);
    t.equal(again.double, 42, `${what}: the script runs`);
    t.ok(again.saved, `${what}: written again`);
    t.equal(run(url, cache).state, 'used', `${what}: the next run uses the new cache`);
  }
});

t.test('a cache V8 refuses (here: compiled from another script) is written again', async (t) => {
  const { url, cache } = scriptDir(t);
  const other = new URL('other.cjs', url);
  fs.writeFileSync(other, SCRIPT.replace('exports.answer = 42;', 'exports.answer = 42; exports.more = 1;'));
  const others = run(other, cache).file!;
  const mine = run(url, cache).file!;
  t.not(mine, others, 'each script has its own cache file');
  fs.copyFileSync(others, mine); // a whole file, of another script: V8 checks the source
  const refused = run(url, cache);
  t.equal(refused.state, 'rejected');
  t.equal(refused.answer, 42);
  t.ok(refused.saved);
  t.equal(run(url, cache).state, 'used');
});

t.test('a changed script does not use the cache of the old one, even at the same length', async (t) => {
  const { url, cache } = scriptDir(t);
  run(url, cache);
  fs.writeFileSync(url, SCRIPT.replace('n * 2', 'n * 3'));
  const changed = run(url, cache);
  t.equal(changed.state, 'absent');
  t.equal(changed.double, 63, 'the new code runs');
});

t.test('a folder that is not the user own is neither read nor written', async (t) => {
  const { url, cache } = scriptDir(t);
  const file = run(url, cache).file!;
  fs.chmodSync(cache, 0o777); // anyone could have put code there
  fs.rmSync(file);
  const open = run(url, cache);
  t.equal(open.state, 'unsafe');
  t.equal(open.file, undefined);
  t.equal(open.answer, 42, 'the script still runs');
  t.notOk(open.saved);
  t.same(fs.readdirSync(cache), [], 'nothing written');

  fs.chmodSync(cache, 0o700);
  const linked = path.join(path.dirname(cache), 'linked');
  fs.symlinkSync(cache, linked);
  t.equal(run(url, linked).state, 'unsafe', 'a symbolic link is not followed');

  const blocked = path.join(path.dirname(cache), 'a-file');
  fs.writeFileSync(blocked, '');
  const inTheWay = run(url, path.join(blocked, 'cache'));
  t.equal(inTheWay.state, 'unsafe', 'a folder that cannot be made');
  t.equal(inTheWay.answer, 42);
});

t.test("other builds' files unused for a week, and temporary files a kill -9 left, go when a file is written", async (t) => {
  const { url, cache } = scriptDir(t);
  const mine = run(url, cache, { save: false });
  t.equal(mine.state, 'absent');
  const old = wallClock.now() / 1000 - 8 * 86_400;
  const files = {
    'v20.0.0-x64-10-00000000.bin': old, // unused for 8 days: goes
    'v20.0.0-x64-11-00000000.bin': wallClock.now() / 1000 - 6 * 86_400, // 6 days: stays
    'v20.0.0-x64-12-00000000.bin.123.tmp': wallClock.now() / 1000 - 2 * 86_400, // left by a kill -9: goes
    'v20.0.0-x64-13-00000000.bin.124.tmp': wallClock.now() / 1000, // being written now: stays
    'notes.txt': old, // not the cache's: stays
  };
  for (const [name, time] of Object.entries(files)) {
    fs.writeFileSync(path.join(cache, name), 'x');
    fs.utimesSync(path.join(cache, name), time, time);
  }
  const written = run(url, cache);
  t.ok(written.saved);
  t.same(
    fs.readdirSync(cache).sort(),
    [path.basename(written.file!), 'notes.txt', 'v20.0.0-x64-11-00000000.bin', 'v20.0.0-x64-13-00000000.bin.124.tmp'].sort(),
  );

  fs.utimesSync(written.file!, old, old);
  t.equal(run(url, cache).state, 'used');
  t.ok(wallClock.now() - fs.statSync(written.file!).mtimeMs < 86_400_000, 'a file in use keeps a recent time, so other builds do not remove it');
});

t.test('off: nothing read or written', async (t) => {
  const { url } = scriptDir(t);
  const off = run(url, undefined);
  t.equal(off.state, 'off');
  t.equal(off.answer, 42);
  t.notOk(off.saved);
});

t.test('where the cache goes: as Node reads its own compile cache variables', async (t) => {
  t.equal(codeCacheDir({ NODE_DISABLE_COMPILE_CACHE: '1' }), undefined);
  t.equal(codeCacheDir({ NODE_DISABLE_COMPILE_CACHE: '1', NODE_COMPILE_CACHE: '/x' }), undefined, 'off wins');
  t.equal(codeCacheDir({ NODE_COMPILE_CACHE: '/var/cache/node' }), path.join('/var/cache/node', 'payemu'));
  t.equal(codeCacheDir({ NODE_COMPILE_CACHE: 'rel' }), path.resolve('rel', 'payemu'));
  const uid = process.getuid?.();
  t.equal(codeCacheDir({}), path.join(os.tmpdir(), uid === undefined ? 'payemu-compile-cache' : `payemu-compile-cache-${uid}`));
  t.equal(codeCacheDir({ NODE_DISABLE_COMPILE_CACHE: '0' }), codeCacheDir({}), '0 does not turn it off');
});
