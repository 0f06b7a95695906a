import fs from 'node:fs';
import path from 'node:path';
import type { Change, StoredRecord } from './collection.js';

/**
 * The data directory's files:
 *   snapshot.json           every record as of the end of segment `covers`: one JSON document,
 *                           one record per line (snapshot-file.ts); older versions wrote one line
 *   journal-000042.ndjson   append-only segments; one line per committed transaction,
 *                           `[[collection, id, record|null], ...]`
 * A record's truth is the snapshot with every later segment replayed over it, in order.
 */

const SEGMENT = /^journal-(\d{6,})\.ndjson$/;

export const snapshotPath = (dir: string) => path.join(dir, 'snapshot.json');
export const segmentPath = (dir: string, n: number) => path.join(dir, `journal-${String(n).padStart(6, '0')}.ndjson`);

/** A directory payemu has written: a snapshot or a journal segment (what reset and doctor check). */
export function looksLikeDataDir(dir: string): boolean {
  return fs.existsSync(snapshotPath(dir)) || fs.readdirSync(dir).some((name) => name.startsWith('journal-'));
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

/** The buffer `encodeChangesBytes` writes into, kept between calls while it is small. */
let lineBuffer = Buffer.allocUnsafe(64 * 1024);
const KEEP_BUFFER_BYTES = 8 * 1024 * 1024;

/**
 * The same bytes as `encodeChanges`, as UTF-8, valid until the next call. Each change is
 * stringified on its own and copied into one buffer: `JSON.stringify` of a whole batch (a
 * thousand recurring charges, 2 MB) builds a string of many pieces that must then be flattened
 * and encoded again, which cost more than the stringify itself.
 */
export function encodeChangesBytes(changes: readonly Change[]): Buffer {
  let buffer = lineBuffer;
  let length = 0;
  buffer[length++] = 0x5b; // [
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i]!;
    const text = JSON.stringify([change.collection, change.id, change.record]);
    // A UTF-16 unit is at most 3 bytes of UTF-8; 3 more for `,` and the closing `]\n`.
    const need = length + text.length * 3 + 3;
    if (need > buffer.length) {
      const bigger = Buffer.allocUnsafe(Math.max(need, buffer.length * 2));
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
    }
    if (i > 0) buffer[length++] = 0x2c; // ,
    length += buffer.write(text, length);
  }
  buffer[length++] = 0x5d; // ]
  buffer[length++] = 0x0a;
  // A huge line (a snapshot imported) is not kept for the process's life.
  lineBuffer = buffer.length <= KEEP_BUFFER_BYTES ? buffer : Buffer.allocUnsafe(64 * 1024);
  return buffer.subarray(0, length);
}

/** What is wrong in a store file, and where. */
export interface Damage {
  /** The file's name in the data directory. */
  file: string;
  /** A journal line, from 1. */
  line?: number;
  /** Where it starts: a byte offset in a journal, a character offset in the snapshot. */
  offset?: number;
  /** What is wrong: "is not valid JSON", "is cut short", ... */
  problem: string;
}

export function describeDamage(damage: Damage): string {
  const where =
    damage.line !== undefined ? ` line ${damage.line} (byte ${damage.offset})` : damage.offset !== undefined ? ` at character ${damage.offset}` : '';
  return `${damage.file}${where} ${damage.problem}`;
}

/** The command that repairs a damaged data directory (src/cli/doctor.ts). */
export function repairCommand(dir: string): string {
  return `payemu doctor --data ${/^[\w@%+=:,./-]+$/.test(dir) ? dir : `'${dir.replaceAll("'", `'\\''`)}'`} --repair`;
}

/**
 * A store file is damaged somewhere other than a torn last write: start stops, naming where,
 * what, and the command that keeps every readable record.
 */
export class StoreDamaged extends Error {
  constructor(
    readonly damage: Damage,
    readonly dir: string,
  ) {
    super(`store damaged: ${describeDamage(damage)} (in ${dir}). To keep every readable record and set the damaged file aside, run: ${repairCommand(dir)}`);
  }
}

/**
 * One journal line decoded and checked: a list of `[collection, id, record|null]`. Throws an
 * Error whose message says what is wrong with it.
 */
export function decodeLine(text: string): Change[] {
  let decoded: unknown;
  try {
    decoded = JSON.parse(text);
  } catch {
    throw new Error('is not valid JSON');
  }
  if (!Array.isArray(decoded)) throw new Error('is not a list of changes');
  const changes: Change[] = new Array(decoded.length);
  for (let i = 0; i < decoded.length; i++) {
    const change: unknown = decoded[i];
    if (!Array.isArray(change) || change.length !== 3) throw new Error('is not a list of changes');
    const [collection, id, record] = change as [unknown, unknown, unknown];
    if (typeof collection !== 'string' || typeof id !== 'string' || !(record === null || isRecord(record))) {
      throw new Error(`has a change that is not [collection, id, record or null] (change ${i + 1})`);
    }
    changes[i] = { collection, id, record };
  }
  return changes;
}

/** A stored record: an object with a string id. */
export function isRecord(value: unknown): value is StoredRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { id?: unknown }).id === 'string';
}

const READ_CHUNK = 1024 * 1024;

/** How a file ends when its last line has no newline: the write of that line never finished. */
export interface Tail {
  line: number;
  offset: number;
  length: number;
  /** Its first bytes, decoded (for reports). */
  start: string;
}

/**
 * Calls `onLine` with each whole line of `file` (without its newline), its number (from 1) and
 * the byte offset where it starts. Returns the bytes of whole lines, and the unfinished last
 * line if the file does not end with a newline.
 */
export function readLines(file: string, onLine: (text: string, line: number, offset: number) => void): { whole: number; tail?: Tail } {
  // Read in chunks rather than as one string: a journal of 100,000 sessions is tens of MB, and
  // holding it whole (next to the records being built from it) would raise the process's
  // resident memory for good. Lines are cut at newline bytes (a byte no UTF-8 sequence
  // contains), so a line is decoded whole even when it spans two reads.
  const fd = fs.openSync(file, 'r');
  let buffer = Buffer.allocUnsafe(READ_CHUNK);
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
      const view = buffer.subarray(0, filled);
      let start = 0;
      for (let end = view.indexOf(10); end !== -1; end = view.indexOf(10, start)) {
        onLine(view.toString('utf8', start, end), ++line, consumed + start);
        start = end + 1;
      }
      if (read === 0) {
        if (start === filled) return { whole: consumed + start };
        return {
          whole: consumed + start,
          tail: { line: line + 1, offset: consumed + start, length: filled - start, start: buffer.toString('utf8', start, Math.min(filled, start + 200)) },
        };
      }
      buffer.copy(buffer, 0, start, filled);
      consumed += start;
      filled -= start;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Replays one segment. A torn last line of the newest segment (the process died inside a write)
 * was never acknowledged: when `repair` is set it is dropped and cut off the file so later
 * appends start on a clean line. A bad line anywhere else means the file was damaged: that is
 * a StoreDamaged error. Returns the segment's length in bytes.
 */
export function replaySegment(file: string, apply: (changes: Change[]) => void, repair: boolean): number {
  const name = path.basename(file);
  const damaged = (damage: Omit<Damage, 'file'>) => new StoreDamaged({ file: name, ...damage }, path.dirname(file));
  const { whole, tail } = readLines(file, (text, line, offset) => {
    let changes: Change[];
    try {
      changes = decodeLine(text);
    } catch (error) {
      throw damaged({ line, offset, problem: (error as Error).message });
    }
    apply(changes);
  });
  if (tail === undefined) return whole;
  // No newline: the write of this line never finished. Only the newest segment can end so (an
  // older one was closed whole when it was rotated); anywhere else it is damage.
  if (!repair) throw damaged({ line: tail.line, offset: tail.offset, problem: 'is cut short' });
  fs.truncateSync(file, whole);
  return whole;
}
