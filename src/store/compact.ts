import fs from 'node:fs';
import { patched, type Change, type StoredRecord } from './collection.js';
import { listSegments, segmentPath } from './files.js';
import type { RawLine, RawRecords } from './raw-records.js';
import { readState, writeSnapshot } from './snapshot-file.js';

/**
 * Folds the snapshot and journal segments up to `upTo` into a new snapshot, then deletes those
 * segments. It runs in a child process (compact-main) so that the server's event loop and
 * memory are untouched; the snapshot is replaced by rename, so a crash at any point leaves
 * either the old snapshot with its segments or the new one.
 */
export async function compact(dir: string, upTo: number, ifWanted: () => void = () => {}): Promise<{ records: number }> {
  // A record of the snapshot that no segment changes is copied as it was read, never parsed (the
  // index in `raw` of its line): a store of a million records is compacted in a scan and a copy,
  // not a parse and a JSON.stringify of each (see RawRecords).
  const collections = new Map<string, Map<string, StoredRecord | number>>();
  let raw: RawRecords | undefined;
  const apply = (changes: Change[]) => {
    for (const change of changes) {
      let map = collections.get(change.collection);
      if (!map) collections.set(change.collection, (map = new Map()));
      let record = change.record;
      if (change.removed) {
        const previous = map.get(change.id);
        record = patched(typeof previous === 'number' ? raw!.read(previous) : previous, change);
      }
      if (record) map.set(change.id, record);
      else map.delete(change.id);
    }
  };
  try {
    await readState(dir, apply, {
      upTo,
      raw: {
        begin: (kept) => {
          raw = kept;
        },
        collection: (name, records) => {
          const map = new Map<string, StoredRecord | number>();
          for (const value of records) map.set(typeof value === 'number' ? raw!.id(value) : value.id, value);
          collections.set(name, map);
        },
      },
    });
    // `ifWanted` throws once the server that asked is gone: checked where the directory would
    // change (the rename, the deletes), as a replay and a write of a big store run without a turn
    // of the event loop that could tell of it otherwise.
    const { records } = writeSnapshot(
      dir,
      upTo,
      [...collections].map(([name, map]) => [name, lines(map, raw)]),
      undefined,
      ifWanted,
    );
    ifWanted();
    for (const n of listSegments(dir)) if (n <= upTo) fs.rmSync(segmentPath(dir, n), { force: true });
    return { records };
  } finally {
    raw?.close();
  }
}

/** A collection's records as the new snapshot takes them: those never parsed as their lines. */
function* lines(map: Map<string, StoredRecord | number>, raw: RawRecords | undefined): IterableIterator<StoredRecord | RawLine> {
  for (const value of map.values()) yield typeof value === 'number' ? raw!.line(value) : value;
}
