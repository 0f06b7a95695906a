import fs from 'node:fs';
import path from 'node:path';
import { tryParseJson } from '../lib/json.js';

/** Who holds a data directory, as its lock file says. */
export interface LockHolder {
  pid: number;
  /** The process's start time (Linux: clock ticks since boot); null where it cannot be read. */
  started: number | null;
  /** The emulator's base URL, once it listens. */
  url?: string;
}

/** The data directories this process holds (by dirKey), with their URL once known. */
const heldHere = new Map<string, string | undefined>();
/** The inode of the lock file each holds: a release removes that file only. */
const lockFiles = new Map<string, number>();

/** How long a start waits for another process that is taking over the same stale lock. */
const TAKEOVER_WAIT_MS = 2_000;
/** The pause between two looks at a takeover in progress. */
const PAUSE_MS = 5;

const lockPath = (dir: string) => path.join(dir, 'payemu.lock');

/** A start refused because a live payemu holds the directory. */
export class DirectoryInUse extends Error {
  constructor(
    dir: string,
    readonly holder: LockHolder,
    inThisProcess = false,
  ) {
    super(
      `data directory ${dir} is in use by another payemu ${inThisProcess ? 'in this process ' : ''}(pid ${holder.pid})${holder.url ? ` at ${holder.url}` : ''}`,
    );
  }
}

/**
 * One emulator per data directory: two processes appending to one journal would corrupt it.
 * The lock file says who holds it, as JSON: `{"pid":..,"started":..,"url":..}`. A pid alone
 * is not enough: after a kill -9 (or a reboot, or in a container) the pid can belong to another
 * program, and the lock would be taken as held forever. So the lock also records the process's
 * start time, and a lock is held only while a process with that pid AND that start time runs;
 * any other lock is stale and taken over. Where start times cannot be read (no /proc), and for
 * lock files of older versions that hold only a pid, a live pid is taken as the holder.
 *
 * Taking over is done under a second file, `payemu.lock.takeover`, created exclusively: two
 * processes that find the same stale lock at the same moment would otherwise both remove it,
 * and the later removal could delete the lock the earlier one had just made. A lock file is
 * never seen half-written: it is written under another name and linked (or renamed) into place.
 */
export function acquireLock(dir: string): () => void {
  const file = lockPath(dir);
  // A lock naming this process's own pid is stale (a previous process that had the same pid,
  // as in a restarted container) unless this process really holds it: a second emulator in
  // the same process on the same directory is refused like one in another process.
  const key = dirKey(dir);
  if (heldHere.has(key)) throw new DirectoryInUse(dir, { pid: process.pid, started: ownStart(), url: heldHere.get(key) }, true);
  const held = () => {
    heldHere.set(key, undefined);
    lockFiles.set(key, fs.statSync(file).ino);
    return () => {
      const ours = lockFiles.get(key);
      heldHere.delete(key);
      lockFiles.delete(key);
      // Only our own lock file: after the directory was removed and made again, the file at this
      // path may be another payemu's lock.
      let found: number;
      try {
        found = fs.statSync(file).ino;
      } catch {
        return;
      }
      if (found === ours) fs.rmSync(file, { force: true });
    };
  };
  // The wait is counted in pauses, not read from a clock: the store reads no time (src/clock/
  // imports the store, not the other way), and the pauses are nearly all of the wait.
  let waited = 0;
  for (;;) {
    if (createExclusively(file)) return held();
    const owner = liveOwner(file);
    if (owner !== undefined) throw new DirectoryInUse(dir, owner);
    const guard = `${file}.takeover`;
    if (createExclusively(guard)) {
      let taken = false;
      try {
        // Only a taker removes a lock, and there is one taker at a time: a lock still stale
        // now cannot turn live before it is removed and ours is made.
        if (liveOwner(file) === undefined) {
          fs.rmSync(file, { force: true });
          taken = createExclusively(file);
        }
      } finally {
        fs.rmSync(guard, { force: true });
      }
      if (taken) return held();
      continue; // someone else's lock came first: look at it again
    }
    // Someone is taking over right now, or died doing it (then its guard is stale too).
    if (liveOwner(guard) === undefined) fs.rmSync(guard, { force: true });
    else if (waited > TAKEOVER_WAIT_MS) throw new Error(`could not lock data directory ${dir}: another process is taking over its stale lock`);
    else waited += pause(PAUSE_MS);
  }
}

/**
 * Adds the emulator's URL to the lock this process holds on `dir` (the lock is taken when the
 * store opens, before the server listens), so that a second payemu refused on the directory,
 * and `payemu reset --data`, can name and reach it. Replaced whole: written aside, renamed.
 */
export function recordLockUrl(dir: string, url: string): void {
  const key = dirKey(dir);
  if (!heldHere.has(key)) throw new Error(`data directory ${dir} is not locked by this process`);
  const file = lockPath(dir);
  const temp = `${file}.${process.pid}.url.tmp`;
  fs.writeFileSync(temp, lockText(url));
  fs.renameSync(temp, file);
  heldHere.set(key, url);
  lockFiles.set(key, fs.statSync(file).ino);
}

/** The live payemu that holds `dir` (this process included), or undefined when none does. */
export function lockHolder(dir: string): LockHolder | undefined {
  let key: string;
  try {
    key = dirKey(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (heldHere.has(key)) return { pid: process.pid, started: ownStart(), url: heldHere.get(key) };
  return liveOwner(lockPath(dir));
}

/**
 * A directory's identity: its device and inode, not its path. A directory removed while this
 * process held it and made again at the same path is another directory, free to be locked.
 */
function dirKey(dir: string): string {
  const { dev, ino } = fs.statSync(dir);
  return `${dev}:${ino}`;
}

/** Creates `file` naming this process, complete from its first moment; false when it exists. */
function createExclusively(file: string): boolean {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, lockText());
  try {
    fs.linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

function lockText(url?: string): string {
  return JSON.stringify({ pid: process.pid, started: ownStart(), ...(url !== undefined ? { url } : {}) });
}

/** Who a lock file names, when that process still runs (and is not this one). */
function liveOwner(file: string): LockHolder | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const owner = parseLock(text);
  return owner && owner.pid !== process.pid && isRunning(owner) ? owner : undefined;
}

/** The JSON form, or an older lock file's bare pid; undefined for anything else (stale). */
function parseLock(text: string): LockHolder | undefined {
  const value = tryParseJson(text);
  if (typeof value === 'number') return isPid(value) ? { pid: value, started: null } : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  const { pid, started, url } = value as Record<string, unknown>;
  if (!isPid(pid)) return undefined;
  return {
    pid,
    started: typeof started === 'number' ? started : null,
    ...(typeof url === 'string' ? { url } : {}),
  };
}

const isPid = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0;

/** The process the lock names is running: the same pid, and (when both are known) the same start time. */
function isRunning(owner: LockHolder): boolean {
  if (!pidExists(owner.pid)) return false;
  if (owner.started === null) return true;
  const started = startTime(owner.pid);
  // Unreadable (no /proc, or hidden from this user) while the pid exists: trust the pid.
  return started === undefined || started === owner.started;
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

let ownStartTime: number | null | undefined;
function ownStart(): number | null {
  // null (unreadable) is kept too: `??=` would read the file again each time.
  if (ownStartTime === undefined) ownStartTime = startTime(process.pid) ?? null;
  return ownStartTime;
}

/**
 * When a process started, from `/proc/<pid>/stat` (field 22, in clock ticks since boot): with
 * the pid it names one process for good. undefined where it cannot be read.
 */
function startTime(pid: number): number | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Field 2, the command name, is in parentheses and may itself hold spaces and parentheses:
  // count from the last ')'. What follows it is field 3 onwards.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const value = Number(fields[22 - 3]);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** Blocks for `ms` and returns it: start-up is synchronous here, and the wait is short and rare. */
function pause(ms: number): number {
  // Nothing notifies this cell: the wait always runs its full time out.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  return ms;
}
