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

/**
 * Replays one segment. A torn last line (the process died inside a write) was never
 * acknowledged: it is dropped and, when `repair` is set, cut off the file so later appends
 * start on a clean line. A bad line anywhere else means the file was damaged: that is an error.
 */
export function replaySegment(file: string, apply: (changes: Change[]) => void, repair: boolean): number {
  const text = fs.readFileSync(file, 'utf8');
  let start = 0;
  let line = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    line++;
    if (end === -1) {
      // No newline: the write of this line never finished.
      if (repair) fs.truncateSync(file, Buffer.byteLength(text.slice(0, start)));
      break;
    }
    let decoded: [string, string, StoredRecord | null][];
    try {
      decoded = JSON.parse(text.slice(start, end));
    } catch {
      throw new Error(`store damaged: ${path.basename(file)} line ${line} is not valid JSON`);
    }
    apply(decoded.map(([collection, id, record]) => ({ collection, id, record })));
    start = end + 1;
  }
  return Buffer.byteLength(text);
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
