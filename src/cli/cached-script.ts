import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { wallClock } from '../clock/clock.js';
import { crc32 } from '../store/crc32.js';

/**
 * What became of the code cache at a start: `used` as it was; `absent` (none yet for this
 * script and this node); `rejected` by V8 (other V8 flags); `damaged` (its checksum is wrong:
 * never given to V8, which would crash on it); `unsafe` (the folder is not the user's own);
 * `off` (NODE_DISABLE_COMPILE_CACHE).
 */
export type CodeCacheState = 'used' | 'absent' | 'rejected' | 'damaged' | 'unsafe' | 'off';

export interface CachedScript<T> {
  readonly exports: T;
  readonly state: CodeCacheState;
  /** The cache file of this script, source and node (undefined when off or unsafe). */
  readonly file: string | undefined;
  /**
   * Writes the code compiled so far to the cache, unless it was used as it was (a later start
   * then finds it). Once only; never throws: without a cache payemu only starts slower.
   */
  save(): boolean;
}

const MAGIC = 0x50454331; // "PEC1"
const HEADER = 8; // MAGIC, then the CRC-32 of what follows
const DAY = 86_400_000;
/** Files of other scripts or nodes unused this long are removed when a new one is written. */
const KEEP_UNUSED = 7 * DAY;

/**
 * Runs `url`, the script of scripts/build-cli.js (a function expression of `exports, require,
 * module, __filename, __dirname, __payemuUrl, __payemuImport`), with V8's code cache: the code a
 * start compiled is kept in `dir`, and the next start of the same script on the same node
 * reads it instead of compiling again (a quarter of payemu's start-up; Node 22's own compile
 * cache covers ES modules only, and Node 20 has none). `importModule` is the script's import():
 * in a vm script that needs an experimental loader, which prints a warning.
 */
export function runCachedScript<T>(url: URL, dir: string | undefined, importModule: (specifier: string) => Promise<unknown>): CachedScript<T> {
  const file = fileURLToPath(url);
  const bytes = fs.readFileSync(file);
  const cacheFile = dir === undefined ? undefined : path.join(dir, `${process.version}-${process.arch}-${bytes.length}-${hex(crc32(bytes))}.bin`);
  let state: CodeCacheState = dir === undefined ? 'off' : ownFolder(dir) ? 'absent' : 'unsafe';
  let cachedData: Buffer | undefined;
  if (state === 'absent' && cacheFile !== undefined) {
    const read = readCache(cacheFile);
    if (read === 'damaged') state = 'damaged';
    else cachedData = read;
  }
  // The file is a function expression (scripts/build-cli.js writes it so): compiled as it is
  // read, with no wrapper joined to it, which would be a second copy of 770 KB in memory.
  const script = new vm.Script(bytes.toString('latin1'), { filename: file, ...(cachedData ? { cachedData } : {}) });
  if (cachedData) state = script.cachedDataRejected ? 'rejected' : 'used';
  if (state === 'used' && cacheFile !== undefined) markUsed(cacheFile);
  const module = { exports: {} as T };
  const load = (specifier: string) => importModule(specifier.startsWith('.') ? new URL(specifier, url).href : specifier);
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file), url.href, load);

  let saved = false;
  return {
    exports: module.exports,
    state,
    file: state === 'off' || state === 'unsafe' ? undefined : cacheFile,
    save() {
      if (saved || state === 'used' || state === 'off' || state === 'unsafe' || cacheFile === undefined) return false;
      saved = true;
      let data: Buffer;
      try {
        data = script.createCachedData();
      } catch {
        return false;
      }
      if (!writeCache(cacheFile, data)) return false;
      removeUnused(path.dirname(cacheFile), cacheFile);
      return true;
    },
  };
}

/**
 * Where the code cache goes: beside Node's own compile cache when NODE_COMPILE_CACHE names its
 * folder, else in the system's temporary folder, one folder per user; none when
 * NODE_DISABLE_COMPILE_CACHE is set (both as Node reads them).
 */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE && env.NODE_DISABLE_COMPILE_CACHE !== '0') return undefined;
  if (env.NODE_COMPILE_CACHE) return path.join(path.resolve(env.NODE_COMPILE_CACHE), 'payemu');
  const uid = process.getuid?.();
  return path.join(os.tmpdir(), uid === undefined ? 'payemu-compile-cache' : `payemu-compile-cache-${uid}`);
}

/**
 * The folder exists (made if not) and only its owner, this user, can write in it: compiled
 * code that someone else put there would run as this user.
 */
function ownFolder(dir: string): boolean {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = fs.lstatSync(dir);
    if (!stat.isDirectory()) return false;
    if (process.platform === 'win32') return true;
    return stat.uid === process.getuid?.() && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

function readCache(file: string): Buffer | 'damaged' | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  if (bytes.length <= HEADER || bytes.readUInt32BE(0) !== MAGIC) return 'damaged';
  const data = bytes.subarray(HEADER);
  return crc32(data) === bytes.readUInt32BE(4) ? data : 'damaged';
}

/** Whole or not at all: written beside, then renamed over, so a kill -9 never leaves half. */
function writeCache(file: string, data: Buffer): boolean {
  const header = Buffer.alloc(HEADER);
  header.writeUInt32BE(MAGIC, 0);
  header.writeUInt32BE(crc32(data), 4);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, Buffer.concat([header, data]), { mode: 0o600 });
    fs.renameSync(temporary, file);
    return true;
  } catch {
    try {
      fs.rmSync(temporary, { force: true });
    } catch {}
    return false;
  }
}

/** A file in use keeps a recent time (at most one write a day), so that removeUnused spares it. */
function markUsed(file: string): void {
  try {
    const now = wallClock.now();
    if (now - fs.statSync(file).mtimeMs > DAY) fs.utimesSync(file, new Date(now), new Date(now));
  } catch {}
}

/**
 * Each build of payemu and each node has a file of its own (about 500 KB): those not used for a
 * week, and temporary files a kill -9 left, go when a new file is written.
 */
function removeUnused(dir: string, keep: string): void {
  try {
    for (const name of fs.readdirSync(dir)) {
      const file = path.join(dir, name);
      if (file === keep || !/\.(bin|tmp)$/.test(name)) continue;
      const age = wallClock.now() - fs.statSync(file).mtimeMs;
      if (age > (name.endsWith('.tmp') ? DAY : KEEP_UNUSED)) fs.rmSync(file, { force: true });
    }
  } catch {}
}

function hex(n: number): string {
  return n.toString(16).padStart(8, '0');
}
