import fs from 'node:fs';
import path from 'node:path';
import { stopwatch } from '../clock/clock.js';

/** Real paths of the data directories this process holds. */
const heldHere = new Set<string>();

/** How long a start waits for another process that is taking over the same stale lock. */
const TAKEOVER_WAIT_MS = 2_000;

/**
 * One emulator per data directory: two processes appending to one journal would corrupt it.
 * The lock file holds the owner's pid; a lock whose process is gone (kill -9) is taken over.
 *
 * Taking over is done under a second file, `payemu.lock.takeover`, created exclusively: two
 * processes that find the same stale lock at the same moment would otherwise both remove it,
 * and the later removal could delete the lock the earlier one had just made. A lock file is
 * never seen empty: it is written under another name and linked into place.
 */
export function acquireLock(dir: string): () => void {
  const file = path.join(dir, 'payemu.lock');
  // A lock naming this process's own pid is stale (a previous process that had the same pid,
  // as in a restarted container) unless this process really holds it: a second emulator in
  // the same process on the same directory is refused like one in another process.
  const key = fs.realpathSync(dir);
  if (heldHere.has(key)) throw new Error(`data directory ${dir} is in use by another payemu in this process (pid ${process.pid})`);
  const held = () => {
    heldHere.add(key);
    return () => {
      heldHere.delete(key);
      fs.rmSync(file, { force: true });
    };
  };
  const waited = stopwatch();
  for (;;) {
    if (createExclusively(file)) return held();
    const owner = liveOwner(file);
    if (owner !== undefined) throw new Error(`data directory ${dir} is in use by another payemu (pid ${owner})`);
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
    else if (waited() > TAKEOVER_WAIT_MS) throw new Error(`could not lock data directory ${dir}: another process is taking over its stale lock`);
    else pause(5);
  }
}

/** Creates `file` holding this pid, complete from its first moment; false when it exists. */
function createExclusively(file: string): boolean {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, String(process.pid));
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

/** The pid in a lock file when that process still runs (and is not this one). */
function liveOwner(file: string): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const owner = Number(text);
  return owner && owner !== process.pid && isAlive(owner) ? owner : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Blocks for `ms`: start-up is synchronous here, and the wait is short and rare. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
