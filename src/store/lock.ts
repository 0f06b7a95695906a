import fs from 'node:fs';
import path from 'node:path';

/** Real paths of the data directories this process holds. */
const heldHere = new Set<string>();

/**
 * One emulator per data directory: two processes appending to one journal would corrupt it.
 * The lock file holds the owner's pid; a lock whose process is gone (kill -9) is taken over.
 */
export function acquireLock(dir: string): () => void {
  const file = path.join(dir, 'payemu.lock');
  // A lock naming this process's own pid is stale (a previous process that had the same pid,
  // as in a restarted container) unless this process really holds it: a second emulator in
  // the same process on the same directory is refused like one in another process.
  const key = fs.realpathSync(dir);
  if (heldHere.has(key)) throw new Error(`data directory ${dir} is in use by another payemu in this process (pid ${process.pid})`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      heldHere.add(key);
      return () => {
        heldHere.delete(key);
        fs.rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(fs.readFileSync(file, 'utf8'));
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new Error(`data directory ${dir} is in use by another payemu (pid ${owner})`);
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock data directory ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
