import fs from 'node:fs';
import path from 'node:path';
import { crc32 } from './crc32.js';
import type { Collection, IndexKey, StoredRecord } from './collection.js';
import { StoredEntry } from './indexes.js';
import { scanLines } from './lines.js';
import type { RawLine, RawRecords } from './raw-records.js';

/**
 * index-keys.json: the keys of the records of snapshot.json, written by a clean stop right after
 * the snapshot, so that a restart reads an unparsed record's keys here instead of parsing the
 * record: its index keys, for the first look-up in an index (the first `POST /v1/sessions` after
 * a restart on 100,000 paid payments: 120 ms instead of 360), and the due times of its watches
 * (Store.watch), for the scheduler's start (100,000 open sessions: none parsed). A cache, never a
 * source of truth: it names the snapshot it was written with (its CRC-32 and the journal segments
 * it covers) and, per collection, a fingerprint of what computed its columns and of the version,
 * and it is used only when both match (a compaction or `doctor` writes another snapshot; another
 * version may key its records otherwise). Anything else about it that is not as written
 * (missing, torn, a key of the wrong shape) makes the records it would have keyed be parsed, as
 * without it.
 *
 *   {"snapshot":"1234567890/7","collections":{"things":{"print":"3f2a9c1e","count":2,"at":0,"bytes":31}}}
 *   [["red","blue"],[["a","b"],null]]
 *
 * One line per KeySet after the first (`at` and `bytes` place it after the first line): per
 * column in its order, the value of each record in the snapshot's order (null for none).
 */
export type KeyColumns = readonly (readonly unknown[])[];

export const indexKeysPath = (dir: string) => path.join(dir, 'index-keys.json');

/** One column of a collection's keys: a value per record. */
export interface KeyColumn {
  name: string;
  /** What computes it, for the fingerprint: the function's source, or what it depends on. */
  source: string;
  of(record: StoredRecord): unknown;
  /** Whether a value read from the file is of the shape `of` returns (null: none). */
  valid(value: unknown): boolean;
}

/**
 * Columns kept for a collection's records, on one line of the file, named `name` in its head:
 * its indexes' keys (under the collection's name), or its watches' due times (Store.watch).
 * Each is read when needed: a start reads the due times, the first look-up the keys.
 */
export interface KeySet {
  name: string;
  def: Collection<StoredRecord>;
  columns: readonly KeyColumn[];
}

/** An index's column. */
export const indexColumn = (name: string, keyOf: (record: StoredRecord) => IndexKey): KeyColumn => ({ name, source: String(keyOf), of: keyOf, valid: isKey });

/** A column of times (a number, or null for none). */
export const timeColumn = (name: string, source: string, of: (record: StoredRecord) => number | undefined): KeyColumn => ({
  name,
  source,
  of,
  valid: (value) => value === null || typeof value === 'number',
});

/** What a collection's keys depend on: its columns' names and sources, its upgrade, and `salt` (the version). */
export function fingerprint(set: KeySet, salt: string): string {
  const parts = [salt, set.columns.map((column) => [column.name, sourceShape(column.source)]), set.def.upgrade ? sourceShape(String(set.def.upgrade)) : null];
  return crc32(JSON.stringify(parts)).toString(16);
}

/**
 * A function's source as the fingerprint reads it: the same for the library's build (tsc) and
 * the command line's bundle (esbuild), which prints the same function otherwise (`void 0` for
 * `undefined`, double quotes, `864e5` for `86_400_000`, fewer parentheses and commas, and
 * `schedule2` for a name, even a parameter's, that another module of the bundle also uses).
 * Without it, a data directory written by one and read by the other parsed records for their
 * keys and due times, and its stop rewrote the whole snapshot (44 s for a million payments). What the
 * version (the salt) does not tell apart, a change of the function's tokens still does (but
 * for the digits that end a name).
 */
export function sourceShape(source: string): string {
  return source
    .replace(/\b\d[\d_]*(?:\.\d+)?(?:e\d+)?\b/g, (n) => String(Number(n.replace(/_/g, ''))))
    .replace(/\bundefined\b/g, 'void 0')
    .replace(/'/g, '"')
    .replace(/\b([A-Za-z_$][\w$]*?)\d+\b/g, '$1')
    .replace(/[\s(),;]/g, '');
}

/** Whether `key`, read from the file, is an index key (null: none). */
export function isKey(key: unknown): key is IndexKey | null {
  return key === null || typeof key === 'string' || (Array.isArray(key) && key.every((k) => typeof k === 'string'));
}

/**
 * For an index build: the keys stored for the record `id` at `position`, as a StoredEntry (the
 * same object each time, filled in), or undefined when the file has none of the right shape.
 */
export function storedEntries(columns: KeyColumns | undefined, indexes: number): (id: string, position: number) => StoredEntry | undefined {
  if (columns === undefined) return () => undefined;
  const entry = new StoredEntry('', new Array<IndexKey | null>(indexes));
  const keys = entry.keys as (IndexKey | null)[];
  return (id, position) => {
    for (let i = 0; i < indexes; i++) {
      const key = columns[i]![position];
      if (!isKey(key)) return undefined;
      keys[i] = key;
    }
    entry.id = id;
    return entry;
  };
}

/** Names a snapshot: its CRC-32 and the last journal segment it covers. */
export const snapshotName = (crc: number, covers: number) => `${crc}/${covers}`;

interface Head {
  snapshot: string;
  collections: Record<string, { print: string; count: number; at: number; bytes: number }>;
}

/**
 * Writes the columns of each KeySet (`[name, print, columns]`: a collection's index keys, or its
 * due times) of the snapshot named `snapshot` (a temporary file renamed into place; not flushed
 * to disk: a file lost or torn is not used).
 */
export function writeIndexKeys(dir: string, snapshot: string, collections: readonly [string, string, readonly (readonly unknown[])[]][]): void {
  const head: Head = { snapshot, collections: {} };
  const lines: string[] = [];
  let at = 0;
  for (const [name, print, columns] of collections) {
    // JSON writes an undefined in an array (no key, no due time) as null.
    const line = JSON.stringify(columns);
    const bytes = Buffer.byteLength(line);
    head.collections[name] = { print, count: columns[0]?.length ?? 0, at, bytes };
    lines.push(line);
    at += bytes + 1;
  }
  const temp = path.join(dir, '.index-keys.json.tmp');
  fs.writeFileSync(temp, `${JSON.stringify(head)}\n${lines.map((line) => `${line}\n`).join('')}`);
  fs.renameSync(temp, indexKeysPath(dir));
}

/** The file's first line, and where the next starts; undefined when there is no first line. */
function readHead(fd: number): { head: Partial<Head>; bodyAt: number } | undefined {
  let found: { head: Partial<Head>; bodyAt: number } | undefined;
  // Small reads: only the head is wanted, and the lines after it can be megabytes.
  scanLines(
    fd,
    (bytes, start, end, offset) => {
      found = { head: JSON.parse(bytes.toString('utf8', start, end)) as Partial<Head>, bodyAt: offset + end - start + 1 };
      return false;
    },
    { chunk: 4096 },
  );
  return found;
}

/**
 * The columns of the KeySet named `name` (`count` of them) in the snapshot named `snapshot`, if
 * the file holds them with this `print`: per column, the value of each record by its position.
 * undefined otherwise. A value may still be of the wrong shape: see KeyColumn.valid.
 */
export function readIndexKeys(dir: string, snapshot: string, name: string, print: string, count: number): KeyColumns | undefined {
  return readKeysFile(dir, (fd) => {
    const read = readHead(fd);
    const entry = read?.head.snapshot === snapshot ? read.head.collections?.[name] : undefined;
    if (!read || entry?.print !== print) return undefined;
    const bytes = Buffer.allocUnsafe(entry.bytes);
    if (fs.readSync(fd, bytes, 0, entry.bytes, read.bodyAt + entry.at) !== entry.bytes) return undefined;
    const columns = JSON.parse(bytes.toString('utf8')) as unknown;
    if (!Array.isArray(columns) || columns.length !== count) return undefined;
    return columns.every((column) => Array.isArray(column) && column.length === entry.count) ? (columns as unknown[][]) : undefined;
  });
}

/** Whether the file holds the keys of the snapshot named `snapshot`, for each of `prints` (collection -> fingerprint). */
export function indexKeysCurrent(dir: string, snapshot: string, prints: Readonly<Record<string, string>>): boolean {
  const head = readKeysFile(dir, (fd) => readHead(fd)?.head);
  return head?.snapshot === snapshot && Object.entries(prints).every(([name, print]) => head.collections?.[name]?.print === print);
}

/** What `read` makes of the open file; undefined when there is none, or anything in it is not as written. */
function readKeysFile<T>(dir: string, read: (fd: number) => T | undefined): T | undefined {
  let fd: number;
  try {
    fd = fs.openSync(indexKeysPath(dir), 'r');
  } catch {
    return undefined;
  }
  try {
    return read(fd);
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * `collections` as a snapshot is written from, each keyed one read through so that writing it
 * gathers its records' keys in order: a parsed record's from its columns' functions, an
 * unparsed one's from `stored` (the file, for the snapshot it was read from) or, when that has
 * none of the right shape for it, from the record parsed now. A collection one of whose records
 * cannot be parsed gets no keys (`keys` leaves it out).
 */
export function keyedCollections(
  collections: Iterable<[string, Iterable<StoredRecord | RawLine>]>,
  sets: ReadonlyMap<string, readonly KeySet[]>,
  salt: string,
  stored: (set: KeySet, print: string) => KeyColumns | undefined,
): { collections: [string, Iterable<StoredRecord | RawLine>][]; keys: () => [string, string, unknown[][]][] } {
  const gathered: [string, string, unknown[][] | undefined][] = [];
  const wrapped = [...collections].map(([name, values]): [string, Iterable<StoredRecord | RawLine>] => {
    const adders = (sets.get(name) ?? []).filter((set) => set.columns.length > 0).map((set) => gatherer(set, salt, stored, gathered));
    if (adders.length === 0) return [name, values];
    return [
      name,
      through(values, (value) => {
        for (const add of adders) add(value);
      }),
    ];
  });
  return {
    collections: wrapped,
    keys: () => gathered.filter((slot): slot is [string, string, unknown[][]] => slot[2] !== undefined),
  };
}

/**
 * The columns of `set` for a collection's records as an import of everything hands them to the
 * store (Store.replaceAll), each by its place in `list`: a parsed record's from the columns'
 * functions; an unparsed one's (an index in `raw`) from `known`: the keys the import's checks
 * found, or `'marks'` for due times, which are null when no watch marked the record (it has no
 * work due). Any other is parsed for them. Undefined when a record cannot be parsed.
 */
export function importedColumns(
  set: KeySet,
  list: readonly (StoredRecord | number)[],
  raw: RawRecords,
  known: KeyColumns | 'marks' | undefined,
): unknown[][] | undefined {
  const { def, columns } = set;
  const out = columns.map(() => new Array<unknown>(list.length));
  const held = typeof known === 'object' ? known : undefined;
  for (let p = 0; p < list.length; p++) {
    const value = list[p]!;
    let record: StoredRecord | undefined;
    if (typeof value !== 'number') record = value;
    else {
      const at = raw.position(value);
      if (held) {
        let i = 0;
        for (; i < columns.length; i++) {
          const key = held[i]![at];
          if (!columns[i]!.valid(key)) break;
          out[i]![p] = key;
        }
        if (i === columns.length) continue;
      }
      if (known === 'marks' && !raw.marked(value)) {
        for (let i = 0; i < columns.length; i++) out[i]![p] = null;
        continue;
      }
      try {
        const parsed = raw.read(value);
        record = def.upgrade ? def.upgrade(parsed) : parsed;
      } catch {
        return undefined;
      }
    }
    for (let i = 0; i < columns.length; i++) out[i]![p] = columns[i]!.of(record);
  }
  return out;
}

/** Gathers one KeySet's columns, record by record, into a slot of `gathered` (left undefined once a record cannot be keyed). */
function gatherer(
  set: KeySet,
  salt: string,
  stored: (set: KeySet, print: string) => KeyColumns | undefined,
  gathered: [string, string, unknown[][] | undefined][],
): (value: StoredRecord | RawLine) => void {
  const { def, columns: kept } = set;
  const print = fingerprint(set, salt);
  const columns: unknown[][] = kept.map(() => []);
  const slot: [string, string, unknown[][] | undefined] = [set.name, print, columns];
  gathered.push(slot);
  // Read at the first unparsed record; null: the file has none for this set, and is not read again.
  let known: KeyColumns | null | undefined;
  const add = (value: StoredRecord | RawLine): boolean => {
    if ('id' in value) {
      for (let i = 0; i < kept.length; i++) columns[i]!.push(kept[i]!.of(value));
      return true;
    }
    if (known === undefined) known = stored(set, print) ?? null;
    if (known && kept.every((column, i) => column.valid(known![i]![value.position]))) {
      for (let i = 0; i < kept.length; i++) columns[i]!.push(known[i]![value.position]);
      return true;
    }
    try {
      const parsed = JSON.parse(value.text) as StoredRecord;
      return add(def.upgrade ? def.upgrade(parsed) : parsed);
    } catch {
      return false;
    }
  };
  return (value) => {
    if (slot[2] !== undefined && !add(value)) slot[2] = undefined;
  };
}

function* through<V>(values: Iterable<V>, see: (value: V) => void): IterableIterator<V> {
  for (const value of values) {
    see(value);
    yield value;
  }
}
