import fs from 'node:fs';
import path from 'node:path';
import { Low } from 'lowdb';
import { DataFile } from 'lowdb/node';
import type { Change, StoredRecord } from './collection.js';

/**
 * The data directory's files:
 *   snapshot.json           every record as of the end of segment `covers`: one JSON document,
 *                           one record per line (writeSnapshot); older versions wrote one line
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

/**
 * The snapshot as stored; a StoreDamaged error when it is not valid JSON or not a snapshot.
 * `layout` says whether it was written one record per line (see writeSnapshot), the layout
 * read without holding the whole file; one written otherwise (by an older version, in one line)
 * is read whole.
 */
export async function readSnapshot(dir: string): Promise<Snapshot & { layout: 'lines' | 'whole' | 'none' }> {
  const lines = readSnapshotLines(dir);
  if (lines === 'none') return { version: 1, covers: 0, collections: {}, layout: 'none' };
  if (lines !== undefined) return { ...lines, layout: 'lines' };
  const db = snapshotDb(dir);
  try {
    await db.read();
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new StoreDamaged(snapshotSyntaxDamage(error), dir);
  }
  const problems = checkSnapshot(db.data);
  if (problems.length > 0) throw new StoreDamaged(problems[0]!.damage, dir);
  return { ...db.data, layout: 'whole' };
}

const SNAPSHOT_HEAD = /^\{"version":1,"covers":(\d+),"collections":\{$/;
const COLLECTION_HEAD = /^("(?:[^"\\]|\\.)*"):\[(\],?)?$/;

/**
 * Reads a snapshot written by writeSnapshot line by line: a record per JSON.parse, in 1 MB
 * reads, so that a start never holds the whole file (tens of MB) beside the records built from
 * it. Returns undefined when the file is not in that layout, or is damaged: the caller then
 * reads it whole, which finds and names the damage as before. 'none' when there is no snapshot.
 */
function readSnapshotLines(dir: string): Snapshot | 'none' | undefined {
  let snapshot: Snapshot | undefined;
  let list: StoredRecord[] | undefined; // the collection being read
  let ended = false;
  let ok = true;
  try {
    readLines(snapshotPath(dir), (text) => {
      if (!ok) return;
      if (snapshot === undefined) {
        const head = SNAPSHOT_HEAD.exec(text);
        if (head) snapshot = { version: 1, covers: Number(head[1]), collections: {} };
        else ok = false;
      } else if (ended) ok = false;
      else if (list !== undefined) {
        if (text === '],' || text === ']') list = undefined;
        else {
          const record: unknown = JSON.parse(text.endsWith(',') ? text.slice(0, -1) : text);
          if (isRecord(record)) list.push(record);
          else ok = false;
        }
      } else if (text === '}}') ended = true;
      else {
        const head = COLLECTION_HEAD.exec(text);
        if (!head) ok = false;
        else {
          const name = JSON.parse(head[1]!) as string;
          const records: StoredRecord[] = [];
          snapshot.collections[name] = records;
          if (head[2] === undefined) list = records;
        }
      }
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
  return ok && ended && list === undefined && Number.isSafeInteger(snapshot?.covers) ? snapshot : undefined;
}

/**
 * Writes a snapshot of `collections` covering the segments up to `covers`: a temporary file,
 * flushed to disk, then renamed over snapshot.json, so a crash at any point leaves the old
 * snapshot or the new one whole. The file is one JSON document (what lowdb and older versions
 * read) laid out one record per line, which a start reads without holding it whole:
 *   {"version":1,"covers":7,"collections":{
 *   "sessions":[
 *   {"id":"cs_1",...},
 *   {"id":"cs_2",...}
 *   ],
 *   "meta":[]
 *   }}
 * JSON.stringify never writes a raw newline inside a value, so a line is a record.
 */
export function writeSnapshot(dir: string, covers: number, collections: Iterable<[string, Iterable<StoredRecord>]>): number {
  const file = snapshotPath(dir);
  // The name lowdb's writer used: a half file left by a crash (of either) is overwritten.
  const temp = path.join(dir, '.snapshot.json.tmp');
  const fd = fs.openSync(temp, 'w');
  let records = 0;
  try {
    let pending: string[] = [];
    let size = 0;
    const write = (text: string) => {
      pending.push(text);
      size += text.length;
      if (size > 1024 * 1024) flush();
    };
    const flush = () => {
      const buffer = Buffer.from(pending.join(''));
      for (let written = 0; written < buffer.length; ) written += fs.writeSync(fd, buffer, written);
      pending = [];
      size = 0;
    };
    write(`{"version":1,"covers":${covers},"collections":{`);
    let firstCollection = true;
    for (const [name, list] of collections) {
      write(`${firstCollection ? '' : ','}\n${JSON.stringify(name)}:[`);
      firstCollection = false;
      let first = true;
      for (const record of list) {
        write(`${first ? '' : ','}\n${JSON.stringify(record)}`);
        first = false;
        records++;
      }
      write(first ? ']' : '\n]');
    }
    write('\n}}\n');
    flush();
    fs.fsyncSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  fs.renameSync(temp, file);
  return records;
}

export function snapshotSyntaxDamage(error: SyntaxError): Damage {
  const position = /at position (\d+)/.exec(error.message)?.[1];
  return { file: 'snapshot.json', ...(position !== undefined ? { offset: Number(position) } : {}), problem: `is not valid JSON (${error.message})` };
}

/**
 * What is wrong with a parsed snapshot's shape, each with what to keep: `drop` names the part
 * left out (a collection or one record) when the rest is kept.
 */
export function checkSnapshot(data: unknown): { damage: Damage; drop: { collection?: string; index?: number } | 'all' | 'covers' }[] {
  const problem = (text: string) => ({ file: 'snapshot.json', problem: text });
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return [{ damage: problem('is not a snapshot (not an object)'), drop: 'all' }];
  const { version, covers, collections } = data as Record<string, unknown>;
  if (version !== 1) return [{ damage: problem(`has an unknown version (${JSON.stringify(version)})`), drop: 'all' }];
  const found: ReturnType<typeof checkSnapshot> = [];
  if (!Number.isSafeInteger(covers) || (covers as number) < 0)
    found.push({ damage: problem(`has no valid "covers" (${JSON.stringify(covers)})`), drop: 'covers' });
  if (typeof collections !== 'object' || collections === null || Array.isArray(collections)) {
    found.push({ damage: problem('has no "collections" object'), drop: 'all' });
    return found;
  }
  for (const [name, records] of Object.entries(collections)) {
    if (!Array.isArray(records)) {
      found.push({ damage: problem(`collection "${name}" is not a list`), drop: { collection: name } });
      continue;
    }
    records.forEach((record, index) => {
      if (!isRecord(record))
        found.push({ damage: problem(`collection "${name}" record ${index + 1} is not a record with an id`), drop: { collection: name, index } });
    });
  }
  return found;
}

/** Reads the snapshot and the segments up to `upTo` (all when omitted). */
export async function readState(
  dir: string,
  apply: (changes: Change[]) => void,
  options: { upTo?: number; repairTail?: boolean } = {},
): Promise<{ covers: number; segments: number[]; journalBytes: number; snapshotLayout: 'lines' | 'whole' | 'none' }> {
  const snapshot = await readSnapshot(dir);
  for (const [collection, records] of Object.entries(snapshot.collections)) {
    // In slices: one list of changes the size of the collection would double its memory.
    for (let i = 0; i < records.length; i += 4096) {
      apply(records.slice(i, i + 4096).map((record) => ({ collection, id: record.id, record })));
    }
    records.length = 0; // what is applied is in the store's maps now; let the list go
  }
  const segments = listSegments(dir).filter((n) => n > snapshot.covers && (options.upTo === undefined || n <= options.upTo));
  let journalBytes = 0;
  segments.forEach((n, i) => {
    const last = i === segments.length - 1;
    journalBytes += replaySegment(segmentPath(dir, n), apply, last && options.repairTail === true);
  });
  return { covers: snapshot.covers, segments, journalBytes, snapshotLayout: snapshot.layout };
}
