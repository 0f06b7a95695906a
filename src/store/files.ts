import fs from 'node:fs';
import path from 'node:path';
import { Low } from 'lowdb';
import { DataFile } from 'lowdb/node';
import type { Change, StoredRecord } from './collection.js';

/**
 * The data directory's files:
 *   snapshot.json           lowdb document: every record as of the end of segment `covers`
 *   journal-000042.ndjson   append-only segments; one line per committed transaction,
 *                           `[[collection, id, record|null], ...]`
 * A record's truth is the snapshot with every later segment replayed over it, in order.
 */
export interface Snapshot {
  version: 1;
  covers: number;
  collections: Record<string, StoredRecord[]>;
}

const SEGMENT = /^journal-(\d{6,})\.ndjson$/;

export const snapshotPath = (dir: string) => path.join(dir, 'snapshot.json');
export const segmentPath = (dir: string, n: number) => path.join(dir, `journal-${String(n).padStart(6, '0')}.ndjson`);

/** lowdb without its pretty-printing: the snapshot is for machines and can hold 100,000 records. */
export function snapshotDb(dir: string): Low<Snapshot> {
  const adapter = new DataFile<Snapshot>(snapshotPath(dir), { parse: JSON.parse, stringify: (d) => JSON.stringify(d) });
  return new Low<Snapshot>(adapter, { version: 1, covers: 0, collections: {} });
}

export function listSegments(dir: string): number[] {
  return fs
    .readdirSync(dir)
    .map((name) => SEGMENT.exec(name)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

export function encodeChanges(changes: readonly Change[]): string {
  return `${JSON.stringify(changes.map((c) => [c.collection, c.id, c.record]))}\n`;
}

const REPLAY_CHUNK = 1024 * 1024;

/**
 * Replays one segment. A torn last line of the newest segment (the process died inside a write)
 * was never acknowledged: when `repair` is set it is dropped and cut off the file so later
 * appends start on a clean line. A bad line anywhere else means the file was damaged: that is
 * an error.
 */
export function replaySegment(file: string, apply: (changes: Change[]) => void, repair: boolean): number {
  // Read in chunks rather than as one string: a journal of 100,000 sessions is tens of MB, and
  // holding it whole (next to the records being built from it) would raise the process's
  // resident memory for good. A line never spans a chunk's decoded text: a chunk is cut after
  // its last newline (a byte no UTF-8 sequence contains) and the rest carried over.
  const fd = fs.openSync(file, 'r');
  let buffer = Buffer.allocUnsafe(REPLAY_CHUNK);
  let filled = 0; // bytes in `buffer`
  let consumed = 0; // file offset of buffer[0]
  let line = 0;
  try {
    for (;;) {
      if (filled === buffer.length) {
        // One line longer than the buffer: make room.
        const bigger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(bigger, 0, 0, filled);
        buffer = bigger;
      }
      const read = fs.readSync(fd, buffer, filled, buffer.length - filled, consumed + filled);
      filled += read;
      const lastNewline = filled === 0 ? -1 : buffer.lastIndexOf(10, filled - 1);
      if (read === 0 || lastNewline === -1) {
        if (read > 0) continue; // no whole line yet: read on
        if (filled === 0) return consumed;
        // No newline: the write of this line never finished. Only the newest segment can end so
        // (an older one was closed whole when it was rotated); anywhere else it is damage.
        if (!repair) throw new Error(`store damaged: ${path.basename(file)} line ${line + 1} is cut short`);
        fs.truncateSync(file, consumed);
        return consumed + filled;
      }
      const text = buffer.toString('utf8', 0, lastNewline + 1);
      for (let start = 0; start < text.length; ) {
        const end = text.indexOf('\n', start);
        line++;
        let decoded: [string, string, StoredRecord | null][];
        try {
          decoded = JSON.parse(text.slice(start, end));
        } catch {
          throw new Error(`store damaged: ${path.basename(file)} line ${line} is not valid JSON`);
        }
        apply(decoded.map(([collection, id, record]) => ({ collection, id, record })));
        start = end + 1;
      }
      buffer.copy(buffer, 0, lastNewline + 1, filled);
      consumed += lastNewline + 1;
      filled -= lastNewline + 1;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads the snapshot and the segments up to `upTo` (all when omitted). */
export async function readState(
  dir: string,
  apply: (changes: Change[]) => void,
  options: { upTo?: number; repairTail?: boolean } = {},
): Promise<{ covers: number; segments: number[]; journalBytes: number }> {
  const db = snapshotDb(dir);
  await db.read();
  const snapshot = db.data;
  for (const [collection, records] of Object.entries(snapshot.collections)) {
    apply(records.map((record) => ({ collection, id: record.id, record })));
  }
  const segments = listSegments(dir).filter((n) => n > snapshot.covers && (options.upTo === undefined || n <= options.upTo));
  let journalBytes = 0;
  segments.forEach((n, i) => {
    const last = i === segments.length - 1;
    journalBytes += replaySegment(segmentPath(dir, n), apply, last && options.repairTail === true);
  });
  return { covers: snapshot.covers, segments, journalBytes };
}
