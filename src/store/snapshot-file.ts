import fs from 'node:fs';
import path from 'node:path';
import { Low } from 'lowdb';
import { DataFile } from 'lowdb/node';
import { tryParseJson } from '../lib/json.js';
import type { Change, StoredRecord } from './collection.js';
import { crc32 } from './crc32.js';
import { isRecord, listSegments, replaySegment, segmentPath, snapshotPath, StoreDamaged, type Damage } from './files.js';
import { scanLines } from './lines.js';
import { RawRecords, type Marks, type RawLine, type SnapshotMarking } from './raw-records.js';

/**
 * snapshot.json: every record as of the end of journal segment `covers`, one JSON document
 * laid out one record per line (writeSnapshot). A line may start with a space: the record is
 * marked, it passed one of the tests named under "marks" for its collection when written (see
 * `Store.watch`); JSON readers skip the space, so older versions and doctor read it as before.
 */
export interface Snapshot {
  version: 1;
  covers: number;
  collections: Record<string, StoredRecord[]>;
}

/** lowdb without its pretty-printing: the snapshot is for machines and can hold 100,000 records. */
export function snapshotDb(dir: string): Low<Snapshot> {
  const adapter = new DataFile<Snapshot>(snapshotPath(dir), { parse: JSON.parse, stringify: (d) => JSON.stringify(d) });
  return new Low<Snapshot>(adapter, { version: 1, covers: 0, collections: {} });
}

/** A snapshot as a start reads it. */
interface SnapshotRead {
  covers: number;
  layout: 'lines' | 'whole' | 'none';
  /** Per collection in file order: a record, or the index in `raw` of one kept unparsed. */
  collections: [string, (StoredRecord | number)[]][];
  raw?: RawRecords;
  /** The tests the writer marked records by; none in a snapshot of older versions or of a compaction. */
  marks?: Marks;
  /** Its CRC-32 (see writeSnapshot), when records were kept unparsed: what index-keys.ts binds to. */
  crc?: number;
}

/**
 * The snapshot as stored; a StoreDamaged error when it is not valid JSON or not a snapshot.
 * `layout` says whether it was written one record per line (see writeSnapshot), the layout
 * whose records can be kept unparsed (`keepRaw`); one written otherwise (by an older version,
 * in one line) is read whole and parsed.
 */
async function readSnapshot(dir: string, keepRaw: boolean): Promise<SnapshotRead> {
  const lines = readSnapshotLines(dir, keepRaw);
  if (lines === 'none') return { covers: 0, collections: [], layout: 'none' };
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
  return { covers: db.data.covers, collections: Object.entries(db.data.collections), layout: 'whole' };
}

const SNAPSHOT_HEAD = /^\{"version":1,"covers":(\d+),(?:"marks":(\{.*\}),)?"collections":\{$/;
const COLLECTION_HEAD = /^("(?:[^"\\]|\\.)*"):\[(\],?)?$/;
const [SPACE, COMMA, QUOTE, BACKSLASH, OPEN, CLOSE, END_LIST] = [32, 44, 34, 92, 123, 125, 93];
/** The last line: the CRC-32 of every byte before it (see writeSnapshot). */
const TRAILER = /^\},"crc32":(\d+)\}$/;
/** How a record line starts when its id can be taken without parsing it: `{"id":"`. */
const ID_START = Buffer.from('{"id":"');

/**
 * Reads a snapshot written by writeSnapshot line by line, in 1 MB reads. With `keepRaw`, a
 * record whose line is not marked and starts with its id (JSON.stringify of payemu's records)
 * is left in the file (RawRecords keeps it open) and only its id is read; otherwise each record
 * is parsed.
 * Returns undefined when the file is not in that layout, or is damaged where a line's shape
 * shows it: the caller then reads it whole, which finds and names the damage as before.
 * 'none' when there is no snapshot.
 */
function readSnapshotLines(dir: string, keepRaw: boolean): Omit<SnapshotRead, 'layout'> | 'none' | undefined {
  let fd: number;
  try {
    fd = fs.openSync(snapshotPath(dir), 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw error;
  }
  const raw = keepRaw ? new RawRecords(fd, dir, fs.fstatSync(fd).size) : undefined;
  let read: Omit<SnapshotRead, 'layout'> | undefined;
  try {
    read = scanSnapshot(fd, raw);
    return read;
  } finally {
    if (!read?.raw) (raw ?? { close: () => fs.closeSync(fd) }).close();
  }
}

function scanSnapshot(fd: number, raw: RawRecords | undefined): Omit<SnapshotRead, 'layout'> | undefined {
  let read: Omit<SnapshotRead, 'layout'> | undefined;
  let list: (StoredRecord | number)[] | undefined; // the collection being read
  let ended = false;
  /** The file offset of the last line, and the CRC-32 it gives (undefined: `}}`, a snapshot of an older version). */
  let trailerAt: number | undefined;
  let expectedCrc: number | undefined;
  /** One line, `bytes[start, end)` at `offset` in the file; false when it is not as written. */
  const line = (bytes: Buffer, start: number, end: number, offset: number): boolean => {
    if (ended) return false;
    if (list !== undefined) {
      if (bytes[start] === END_LIST && (end === start + 1 || (end === start + 2 && bytes[start + 1] === COMMA))) {
        list = undefined;
        return true;
      }
      const marked = bytes[start] === SPACE;
      const from = marked ? start + 1 : start;
      const to = bytes[end - 1] === COMMA ? end - 1 : end;
      if (bytes[from] !== OPEN || bytes[to - 1] !== CLOSE) return false;
      // A marked record stays in the file too: a start reads its due times beside the snapshot
      // (index-keys.ts), and parses it only when they are not there.
      const idEnd = raw ? plainIdEnd(bytes, from, to) : -1;
      if (idEnd !== -1) {
        // latin1: the id's bytes are ASCII (plainIdEnd), and latin1 is the cheaper decoding.
        list.push(raw!.add(bytes.toString('latin1', from + ID_START.length, idEnd), offset + from - start, offset + to - start, marked, list.length));
        return true;
      }
      const record = tryParseJson(bytes.toString('utf8', from, to));
      if (!isRecord(record)) return false;
      list.push(record);
      return true;
    }
    const text = bytes.toString('utf8', start, end);
    if (read === undefined) {
      const head = SNAPSHOT_HEAD.exec(text);
      if (!head) return false;
      const marks = head[2] === undefined ? undefined : parseMarks(head[2]);
      if (marks === null) return false;
      read = { covers: Number(head[1]), collections: [], ...(raw ? { raw } : {}), ...(marks ? { marks } : {}) };
    } else if (text === '}}' || TRAILER.test(text)) {
      ended = true;
      trailerAt = offset;
      const crc = TRAILER.exec(text)?.[1];
      if (crc !== undefined) expectedCrc = Number(crc);
    } else {
      const head = COLLECTION_HEAD.exec(text);
      if (!head) return false;
      const records: (StoredRecord | number)[] = [];
      read.collections.push([JSON.parse(head[1]!) as string, records]);
      if (head[2] === undefined) list = records;
    }
    return true;
  };
  let crc = 0; // of the bytes before the last line, read so far
  const scanned = scanLines(fd, line, {
    afterRead(bytes, whole, at) {
      const checked = trailerAt === undefined ? whole : trailerAt - at;
      if (checked > 0) crc = crc32(bytes.subarray(0, checked), crc);
    },
  });
  // Bytes after the last newline: not a file writeSnapshot finished.
  if (scanned === undefined || scanned.tail !== undefined) return undefined;
  if (!ended || list !== undefined || !Number.isSafeInteger(read?.covers)) return undefined;
  // The records kept unparsed are checked only by the shape of their lines: the checksum is
  // what finds damage inside one at start (damage stops a start), for 10 ms a 60 MB
  // file. A mismatch, or a file with no checksum (older versions), is read whole and parsed,
  // which names the damage, if it is not JSON, as it always did.
  if (raw && (expectedCrc === undefined || crc !== expectedCrc)) return undefined;
  return raw ? { ...read!, crc } : read;
}

/**
 * Whether a start, reading the record at `bytes[from, to)` as a snapshot line, keeps it under
 * `id`: it takes the id of a line that starts with it without parsing the line (`plainIdEnd`),
 * where JSON.parse of a record that names "id" twice keeps the last. Other lines are parsed.
 */
export function readAsId(bytes: Buffer, from: number, to: number, id: string): boolean {
  const end = plainIdEnd(bytes, from, to);
  if (end === -1) return true;
  const start = from + ID_START.length;
  if (end - start !== id.length) return false;
  for (let i = 0; i < id.length; i++) if (bytes[start + i] !== id.charCodeAt(i)) return false;
  return true;
}

/** Where the id of the record at `bytes[from, to)` ends when it is its first field, in ASCII without escapes; -1 otherwise. */
function plainIdEnd(bytes: Buffer, from: number, to: number): number {
  for (let i = 0; i < ID_START.length; i++) if (bytes[from + i] !== ID_START[i]) return -1;
  for (let i = from + ID_START.length; i < to; i++) {
    const byte = bytes[i];
    if (byte === BACKSLASH || byte! >= 0x80) return -1;
    if (byte === QUOTE) return i > from + ID_START.length && (bytes[i + 1] === COMMA || bytes[i + 1] === CLOSE) ? i : -1;
  }
  return -1;
}

/** The "marks" of a snapshot's head; null when they are not `{collection: [test name, ...]}`. */
function parseMarks(text: string): Marks | null {
  const marks = tryParseJson(text);
  if (typeof marks !== 'object' || marks === null || Array.isArray(marks)) return null;
  for (const names of Object.values(marks)) if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) return null;
  return marks as Marks;
}

/**
 * Writes a snapshot of `collections` covering the segments up to `covers`: a temporary file,
 * flushed to disk, then renamed over snapshot.json, so a crash at any point leaves the old
 * snapshot or the new one whole. The file is one JSON document (what lowdb and older versions
 * read) laid out one record per line, which a start reads without parsing every record:
 *   {"version":1,"covers":7,"marks":{"sessions":["session.expire"]},"collections":{
 *   "sessions":[
 *    {"id":"cs_1",...},
 *   {"id":"cs_2",...}
 *   ],
 *   "meta":[]
 *   },"crc32":1234567890}
 * The last line holds the CRC-32 of every byte before it: damage inside a record a start keeps
 * unparsed is found at start all the same (see scanSnapshot).
 * JSON.stringify never writes a raw newline inside a value, so a line is a record. A record
 * never parsed since it was read (a RawLine) is written back as it was, with its mark. With no
 * `marking` (a compaction, which knows no tests), "marks" is left out and no line is marked.
 */
export function writeSnapshot(
  dir: string,
  covers: number,
  collections: Iterable<[string, Iterable<StoredRecord | RawLine>]>,
  marking?: SnapshotMarking,
  /** Runs once the new snapshot is on disk, before it replaces the old one; a throw leaves the old. */
  beforeRename?: () => void,
): { records: number; crc: number } {
  const file = snapshotPath(dir);
  // The name lowdb's writer used: a half file left by a crash (of either) is overwritten.
  const temp = path.join(dir, '.snapshot.json.tmp');
  const fd = fs.openSync(temp, 'w');
  let records = 0;
  let crc = 0;
  try {
    // Written through one buffer, a MiB at a time: each record's text encoded into it (or its
    // bytes copied, when they are held as read), not joined into a string first.
    const stage = Buffer.allocUnsafe(1024 * 1024);
    let used = 0;
    const out = (bytes: Buffer) => {
      crc = crc32(bytes, crc);
      for (let written = 0; written < bytes.length; ) written += fs.writeSync(fd, bytes, written);
    };
    const flush = () => {
      if (used > 0) out(stage.subarray(0, used));
      used = 0;
    };
    const write = (text: string) => {
      // At most 3 bytes of UTF-8 for each UTF-16 unit.
      if (used + text.length * 3 > stage.length) {
        flush();
        if (text.length * 3 > stage.length) return out(Buffer.from(text));
      }
      used += stage.write(text, used);
    };
    /** A held line, after `,\n` (or `\n` for the first) and its mark: bytes copied, no string made. */
    const writeHeld = (line: RawLine, first: boolean, mark: boolean) => {
      const length = line.byteLength!;
      if (used + length + 3 > stage.length) {
        flush();
        if (length + 3 > stage.length) return write(`${first ? '\n' : ',\n'}${mark ? ' ' : ''}${line.text}`);
      }
      if (!first) stage[used++] = 0x2c;
      stage[used++] = 0x0a;
      if (mark) stage[used++] = 0x20;
      line.copy!(stage, used);
      used += length;
    };
    const marks = marking && Object.keys(marking.marks).length > 0 ? marking : undefined;
    write(`{"version":1,"covers":${covers},${marks ? `"marks":${JSON.stringify(marks.marks)},` : ''}"collections":{`);
    let firstCollection = true;
    for (const [name, list] of collections) {
      write(`${firstCollection ? '' : ','}\n${JSON.stringify(name)}:[`);
      firstCollection = false;
      const marked = marks?.marks[name] !== undefined ? (record: StoredRecord) => marks.marked(name, record) : undefined;
      let first = true;
      for (const record of list) {
        const separator = first ? '\n' : ',\n';
        records++;
        if (!isRawLine(record)) write(`${separator}${marked?.(record) ? ' ' : ''}${JSON.stringify(record)}`);
        else if (record.copy) writeHeld(record, first, marked !== undefined && record.marked);
        else write(`${separator}${marked && record.marked ? ' ' : ''}${record.text}`);
        first = false;
      }
      write(first ? ']' : '\n]');
    }
    write('\n');
    flush();
    const trailer = Buffer.from(`},"crc32":${crc}}\n`);
    for (let written = 0; written < trailer.length; ) written += fs.writeSync(fd, trailer, written);
    fs.fsyncSync(fd);
    beforeRename?.();
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  fs.renameSync(temp, file);
  return { records, crc };
}

function isRawLine(record: StoredRecord | RawLine): record is RawLine {
  return !('id' in record); // a record always has one
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

/** Where a start puts the snapshot's records, some kept unparsed (see RawRecords). */
export interface RawSink {
  /** Called once, before `collection`: the records kept, and the tests the snapshot marks them by. */
  begin(raw: RawRecords, marks: Marks | undefined): void;
  /** A collection's records in file order: each parsed, or its index in `raw`. The list is the sink's from then on. */
  collection(name: string, records: readonly (StoredRecord | number)[]): void;
}

/**
 * Reads the snapshot and the segments up to `upTo` (all when omitted). With `raw`, the
 * snapshot's records are kept unparsed where they can be (see readSnapshotLines).
 */
export async function readState(
  dir: string,
  apply: (changes: Change[]) => void,
  options: { upTo?: number; repairTail?: boolean; raw?: RawSink } = {},
): Promise<{
  covers: number;
  segments: number[];
  journalBytes: number;
  snapshotLayout: 'lines' | 'whole' | 'none';
  snapshotMarks: Marks | undefined;
  snapshotCrc: number | undefined;
}> {
  const snapshot = await readSnapshot(dir, options.raw !== undefined);
  if (snapshot.raw) options.raw!.begin(snapshot.raw, snapshot.marks);
  for (const [collection, records] of snapshot.collections) {
    if (snapshot.raw) {
      options.raw!.collection(collection, records);
      continue;
    }
    // In slices: one list of changes the size of the collection would double its memory.
    let batch: Change[] = [];
    const flush = () => {
      if (batch.length > 0) apply(batch);
      batch = [];
    };
    for (const record of records as StoredRecord[]) {
      batch.push({ collection, id: record.id, record });
      if (batch.length === 4096) flush();
    }
    flush();
    records.length = 0; // what is applied is in the store's maps now; let the list go
  }
  const segments = listSegments(dir).filter((n) => n > snapshot.covers && (options.upTo === undefined || n <= options.upTo));
  let journalBytes = 0;
  segments.forEach((n, i) => {
    const last = i === segments.length - 1;
    journalBytes += replaySegment(segmentPath(dir, n), apply, last && options.repairTail === true);
  });
  return { covers: snapshot.covers, segments, journalBytes, snapshotLayout: snapshot.layout, snapshotMarks: snapshot.marks, snapshotCrc: snapshot.crc };
}
