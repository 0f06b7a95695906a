import fs from 'node:fs';
import path from 'node:path';

/**
 * One emulator per data directory: two processes appending to one journal would corrupt it.
 * The lock file holds the owner's pid; a lock whose process is gone (kill -9) is taken over.
 */
export function acquireLock(dir: string): () => void {
  const file = path.join(dir, 'payemu.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(file, { force: true });
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
