// Child-process entry of journal compaction: `compact-main <dir> <upTo>`. See compact.ts.
import os from 'node:os';
import { compact } from './compact.js';

// Compaction is background work: on a machine with few cores (a CI runner) it should not take
// CPU from the server it compacts for, nor from the tests driving that server.
try {
  os.setPriority(os.constants.priority.PRIORITY_BELOW_NORMAL);
} catch {
  // Not allowed here: run at the normal priority.
}

// When the server that started this compaction is gone (killed, so its IPC channel closed),
// stop at once: a compaction stopped at any point leaves a readable store, while one that went
// on would race the restarted server, replacing the snapshot and deleting segments while that
// server reads them. The channel may have closed before this code runs (no event then).
const orphaned = () => process.exit(2);
process.on('disconnect', orphaned);
if (process.send !== undefined && !process.connected) orphaned();

const [dir, upTo] = process.argv.slice(2);
compact(dir!, Number(upTo))
  .then(
    ({ records }) => process.send?.({ ok: true, records }),
    (error: Error) => {
      process.send?.({ ok: false, error: error.message });
      process.exitCode = 1;
    },
  )
  // A 'disconnect' listener keeps the IPC channel, and so this process, alive: let it go.
  .finally(() => process.off('disconnect', orphaned));
