// Child-process entry of journal compaction: `compact-main <dir> <upTo>`. See compact.ts.
import { compact } from './compact.js';

const [dir, upTo] = process.argv.slice(2);
compact(dir!, Number(upTo)).then(
  ({ records }) => process.send?.({ ok: true, records }),
  (error: Error) => {
    process.send?.({ ok: false, error: error.message });
    process.exitCode = 1;
  },
);
