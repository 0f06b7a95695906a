// Child-process entry of journal compaction: `compact-main <dir> <upTo> <server pid>`. See compact.ts.
import os from 'node:os';
import { compact } from './compact.js';

// Compaction is background work: on a machine with few cores (a CI runner) it should not take
// CPU from the server it compacts for, nor from the tests driving that server.
try {
  os.setPriority(os.constants.priority.PRIORITY_BELOW_NORMAL);
} catch {
  // Not allowed here: run at the normal priority.
}

const [dir, upTo, server] = process.argv.slice(2);

// When the server that started this compaction is gone (killed), stop at once: a compaction
// stopped at any point leaves a readable store, while one that went on would race the restarted
// server, replacing the snapshot and deleting segments while that server reads them. Two signs,
// as neither is enough alone:
// - this process has another parent (on POSIX, an orphan is adopted at once). Read when asked,
//   so it holds where the directory would change, in the middle of synchronous work;
// - the IPC channel closed (Windows keeps the dead parent's pid). Only seen in a turn of the
//   event loop, and Node 22+ may run this module before the first one.
class Orphaned extends Error {}
const orphaned = () => process.exit(2);
const parentGone = () => process.ppid !== Number(server) || (process.send !== undefined && !process.connected);
process.on('disconnect', orphaned);
if (parentGone()) orphaned();

compact(dir!, Number(upTo), () => {
  if (parentGone()) throw new Orphaned();
})
  .then(
    ({ records }) => process.send?.({ ok: true, records }),
    (error: Error) => {
      if (error instanceof Orphaned) orphaned();
      process.send?.({ ok: false, error: error.message });
      process.exitCode = 1;
    },
  )
  // A 'disconnect' listener keeps the IPC channel, and so this process, alive: let it go.
  .finally(() => process.off('disconnect', orphaned));
