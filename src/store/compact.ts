import fs from 'node:fs';
import { patched, type Change, type StoredRecord } from './collection.js';
import { listSegments, segmentPath } from './files.js';
import { readState, writeSnapshot } from './snapshot-file.js';

/**
 * Folds the snapshot and journal segments up to `upTo` into a new snapshot, then deletes those
 * segments. It runs in a child process (compact-main) so that the server's event loop and
 * memory are untouched; the snapshot is replaced by rename, so a crash at any point leaves
 * either the old snapshot with its segments or the new one.
 */
export async function compact(dir: string, upTo: number, ifWanted: () => void = () => {}): Promise<{ records: number }> {
  const collections = new Map<string, Map<string, StoredRecord>>();
  const apply = (changes: Change[]) => {
    for (const change of changes) {
      let map = collections.get(change.collection);
      if (!map) collections.set(change.collection, (map = new Map()));
      const record = change.removed ? patched(map.get(change.id), change) : change.record;
      if (record) map.set(change.id, record);
      else map.delete(change.id);
    }
  };
  await readState(dir, apply, { upTo });
  // `ifWanted` throws once the server that asked is gone: checked where the directory would
  // change (the rename, the deletes), as a replay and a write of a big store run without a turn
  // of the event loop that could tell of it otherwise.
  const { records } = writeSnapshot(
    dir,
    upTo,
    [...collections].map(([name, map]) => [name, map.values()]),
    undefined,
    ifWanted,
  );
  ifWanted();
  for (const n of listSegments(dir)) if (n <= upTo) fs.rmSync(segmentPath(dir, n), { force: true });
  return { records };
}
