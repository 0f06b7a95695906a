import fs from 'node:fs';
import path from 'node:path';
import { MissingBase, type Change, type Replaced, type StoredRecord } from './collection.js';
import { JsonBytes, NotPlain } from './json-bytes.js';
import { readLines } from './lines.js';

/**
 * The data directory's files:
 *   snapshot.json           every record as of the end of segment `covers`: one JSON document,
 *                           one record per line (snapshot-file.ts); older versions wrote one line
 *   journal-000042.ndjson   append-only segments; one line per committed transaction, a list of
 *                           changes: `[collection, id, record]` (written whole), `[collection,
 *                           id, null]` (deleted) or `[collection, id, {fields}, [removed]]`
 *                           (rewritten in part: see `entryText`)
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

const baseOf = (replaced: Replaced | undefined, i: number): StoredRecord | undefined => {
  const value = replaced?.[i];
  return typeof value === 'object' ? value : undefined;
};

export function encodeChanges(changes: readonly Change[], replaced?: Replaced): string {
  return `[${changes.map((c, i) => entryText(c, baseOf(replaced, i))).join(',')}]\n`;
}

/**
 * One change as the journal writes it. A record rewritten with few of its fields changed (a
 * schedule's next billing date and sequence after each charge, a payment's status) is written
 * as those fields only, `[collection, id, {changed}, [removed]]`, to be laid over the record as
 * the lines before left it: a year of daily billing rewrites 1,000 schedules 365 times, and
 * their whole records were a quarter of the journal. A field holding an object or an array is
 * always written when the record has it (it may have been changed in place); a field set to
 * `undefined` is removed, as `JSON.stringify` would drop it from a whole record.
 */
function entryText(change: Change, base: StoredRecord | undefined): string {
  const record = change.record;
  // Deleted and written again in one transaction (see Change): both, so a replay moves it last too.
  if (change.recreated) return `${JSON.stringify([change.collection, change.id, null])},${JSON.stringify([change.collection, change.id, record])}`;
  if (record !== null && base !== undefined && base !== record) {
    const patch = changedFields(base as unknown as Fields, record as unknown as Fields);
    if (patch) return JSON.stringify([change.collection, change.id, patch[0], patch[1]]);
  }
  return JSON.stringify([change.collection, change.id, record]);
}

type Fields = Record<string, unknown>;

const NONE_REMOVED: readonly string[] = [];

/** The fields of `after` that differ from `base`, and those it dropped; none when every field but the id is written. */
function changedFields(base: Fields, after: Fields): [Fields, readonly string[]] | undefined {
  const changed: Fields = {};
  let count = 0;
  let total = 0;
  let removed = NONE_REMOVED;
  for (const key in after) {
    total++;
    const value = after[key];
    if (value === undefined) {
      if (base[key] !== undefined) removed = [...removed, key];
    } else if (value !== base[key] || (typeof value === 'object' && value !== null)) {
      changed[key] = value;
      count++;
    }
  }
  for (const key in base) if (base[key] !== undefined && !(key in after)) removed = [...removed, key];
  // Nothing left out but the id: the whole record is as short, and needs no record before it.
  if (count + 1 >= total) return undefined;
  return [changed, removed];
}

/** What `encodeChangesBytes` writes into, kept between calls while its buffer is small. */
let line = new JsonBytes();
const KEEP_BUFFER_BYTES = 8 * 1024 * 1024;

/**
 * The same bytes as `encodeChanges`, as UTF-8, valid until the next call: each change is
 * written straight into one buffer (json-bytes.ts), as `entryText` would write it. A change
 * holding something other than plain data is written by `entryText` itself.
 */
export function encodeChangesBytes(changes: readonly Change[], replaced?: Replaced, spans?: number[]): Buffer {
  const out = line;
  out.length = 0;
  if (spans) spans.length = 0;
  out.byte(0x5b); // [
  for (let i = 0; i < changes.length; i++) {
    if (i > 0) out.byte(0x2c); // ,
    const change = changes[i]!;
    const start = out.length;
    try {
      const whole = writeEntry(out, change, baseOf(replaced, i));
      if (whole >= 0 && spans) spans.push(i, whole, out.length - 1);
    } catch (error) {
      if (!(error instanceof NotPlain)) throw error;
      out.length = start;
      out.raw(entryText(change, baseOf(replaced, i)));
    }
  }
  out.byte(0x5d); // ]
  out.byte(0x0a);
  const bytes = out.buffer.subarray(0, out.length);
  // A huge line (a snapshot imported) is not kept for the process's life.
  if (out.buffer.length > KEEP_BUFFER_BYTES) line = new JsonBytes();
  return bytes;
}

/**
 * `entryText` into `out`: the changed fields alone when `changedFields` would give them, without
 * building them. Returns where the record starts in `out` when it is written whole (it ends
 * before the entry's closing bracket), else -1.
 */
function writeEntry(out: JsonBytes, change: Change, base: StoredRecord | undefined): number {
  if (change.recreated) {
    // As `entryText`: the delete first, then the whole record.
    writeHead(out, change);
    out.word('null');
    out.byte(0x5d); // ]
    out.byte(0x2c);
  }
  writeHead(out, change);
  const record = change.record as unknown as Fields | null;
  let whole = -1;
  if (record === null) out.word('null');
  else if (base === undefined || change.recreated || base === (record as unknown) || !writePatch(out, base as unknown as Fields, record)) {
    whole = out.length;
    out.object(record);
  }
  out.byte(0x5d); // ]
  return whole;
}

/** `[collection,id,` of a journal entry. */
function writeHead(out: JsonBytes, change: Change): void {
  out.byte(0x5b); // [
  out.string(change.collection);
  out.byte(0x2c);
  out.string(change.id);
  out.byte(0x2c);
}

/**
 * The field names of the last record patched, in their order: a year of billing rewrites 1,000
 * schedules of one shape, and a record whose names are these, over one whose names are too,
 * dropped none of them.
 */
let patchedNames: readonly string[] = [];

/**
 * Writes `{changed}, [removed]` of `after` over `base`, as `changedFields` finds them, and
 * returns true; false, having written nothing, when `changedFields` would give none (the whole
 * record is written). The fields are written as they are found, and taken back when too many
 * changed. Walked with `for...in` and looked up by name: `Object.keys` and `Object.values` of
 * both records (to compare them by position) made four arrays a rewrite, a kilobyte of garbage
 * for each charge of a year of daily billing. The dropped fields are looked for only when the
 * two records' names are not both `patchedNames` (each of `base`'s names looked up in `after`,
 * 21 look-ups a charge, was a tenth of the patch's time).
 */
function writePatch(out: JsonBytes, base: Fields, after: Fields): boolean {
  const start = out.length;
  let count = 0;
  let total = 0;
  let removed: string[] | undefined;
  const names = patchedNames;
  let named = true;
  out.byte(0x7b); // {
  for (const key in after) {
    if (named && names[total] !== key) named = false;
    total++;
    const value = after[key];
    if (value === undefined) {
      if (base[key] !== undefined) (removed ??= []).push(key);
    } else if (value !== base[key] || (typeof value === 'object' && value !== null)) {
      if (count++ > 0) out.byte(0x2c);
      out.string(key);
      out.byte(0x3a); // :
      out.value(value);
    }
  }
  if (!named || total !== names.length) {
    named = false;
    patchedNames = Object.keys(after);
  }
  // Nothing left out but the id: the whole record is as short, and needs no record before it.
  if (count + 1 >= total) {
    out.length = start;
    return false;
  }
  out.byte(0x7d); // }
  if (named) {
    // `after`'s names are `names`: so are `base`'s, in order, or its dropped fields are looked for.
    let i = 0;
    for (const key in base) {
      if (key !== names[i++]) {
        named = false;
        break;
      }
    }
    if (i !== names.length) named = false;
  }
  // `in` first: reading a field that holds a fraction or a timestamp makes a number object of it.
  if (!named) for (const key in base) if (!(key in after) && base[key] !== undefined) (removed ??= []).push(key);
  out.byte(0x2c);
  out.array(removed ?? NONE_REMOVED);
  return true;
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
 * One journal line decoded and checked: a list of `[collection, id, record|null]` and
 * `[collection, id, {fields}, [removed]]` (see `entryText`; `removed` is then set on the
 * change). Throws an Error whose message says what is wrong with it.
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
    if (!Array.isArray(change) || (change.length !== 3 && change.length !== 4)) throw new Error('is not a list of changes');
    const [collection, id, record, removed] = change as [unknown, unknown, unknown, unknown];
    if (change.length === 4) {
      if (typeof collection !== 'string' || typeof id !== 'string' || !isFields(record) || !isKeyList(removed)) {
        throw new Error(`has a change that is not [collection, id, fields, removed fields] (change ${i + 1})`);
      }
      changes[i] = { collection, id, record: record as unknown as StoredRecord, removed };
      continue;
    }
    if (typeof collection !== 'string' || typeof id !== 'string' || !(record === null || isRecord(record))) {
      throw new Error(`has a change that is not [collection, id, record or null] (change ${i + 1})`);
    }
    changes[i] = { collection, id, record };
  }
  return changes;
}

const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value) && !('id' in value);
const isKeyList = (value: unknown): value is string[] => Array.isArray(value) && value.every((key) => typeof key === 'string' && key !== 'id');

/** A stored record: an object with a string id. */
export function isRecord(value: unknown): value is StoredRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { id?: unknown }).id === 'string';
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
    try {
      apply(changes);
    } catch (error) {
      if (error instanceof MissingBase) throw damaged({ line, offset, problem: error.message });
      throw error;
    }
  });
  if (tail === undefined) return whole;
  // No newline: the write of this line never finished. Only the newest segment can end so (an
  // older one was closed whole when it was rotated); anywhere else it is damage.
  if (!repair) throw damaged({ line: tail.line, offset: tail.offset, problem: 'is cut short' });
  fs.truncateSync(file, whole);
  return whole;
}
