import type { Change, Collection, Replaced, StoredRecord } from './collection.js';
import { type HeldKeys, type Marks, type RawLine, RawRecords } from './raw-records.js';

/**
 * Each collection's records in memory, by id, in the order they were written: parsed, or the
 * index in `raw` of one read from the snapshot and not parsed yet (RawRecords), parsed on first
 * use. What the Store reads and applies its commits to; it keeps the indexes and watches.
 */
export class RecordMaps {
  /** A record, or the index in `raw` of one read from the snapshot and not parsed yet. */
  private readonly maps = new Map<string, Map<string, StoredRecord | number>>();
  /** The snapshot's records kept unparsed. */
  raw: RawRecords | undefined;
  /** How many of each collection's records are still unparsed. */
  private readonly rawLeft = new Map<string, number>();
  /**
   * A collection's records as the snapshot held them (each parsed, or an index in `raw`), not
   * put in its map yet: that is done when something first needs the map, so a start does not
   * fill the maps of 100,000 records no request has asked for yet.
   */
  private readonly pending = new Map<string, (StoredRecord | number)[]>();
  /** The tests the snapshot that was read marked its records by. */
  snapshotMarks: Marks | undefined;

  /**
   * `duplicated` is told when a collection's map, filled from the snapshot's list, holds fewer
   * records than the list: an index built from the list is then wrong (see `map`).
   */
  constructor(
    private readonly defs: ReadonlyMap<string, Collection<StoredRecord>>,
    private readonly duplicated: (name: string) => void,
  ) {
    for (const name of defs.keys()) this.maps.set(name, new Map());
  }

  /**
   * What each change replaces in memory (a record, the index of one kept unparsed, or
   * nothing), looked up once for both the journal (which writes only the fields that changed
   * of a record it has parsed: files.ts) and the Store's `apply`.
   */
  replaced(changes: readonly Change[]): Replaced {
    const replaced = new Array<StoredRecord | number | undefined>(changes.length);
    // A transaction's changes come grouped by collection: each group's map is looked up once.
    let name: string | undefined;
    let map: Map<string, StoredRecord | number> | undefined;
    for (let i = 0; i < changes.length; i++) {
      const change = changes[i]!;
      if (change.collection !== name) {
        name = change.collection;
        map = this.has(name) ? this.map(name) : undefined;
      }
      replaced[i] = map?.get(change.id);
    }
    return replaced;
  }

  names(): IterableIterator<string> {
    return this.maps.keys();
  }

  has(name: string): boolean {
    return this.maps.has(name);
  }

  /**
   * Forgets every record, to hold `raw`'s instead (handed over by `load`, as at start): the
   * whole store replaced by an imported snapshot. The records kept unparsed before are never
   * read again.
   */
  replace(raw: RawRecords, marks: Marks): void {
    this.raw?.close();
    for (const map of this.maps.values()) map.clear();
    this.pending.clear();
    this.rawLeft.clear();
    this.raw = raw;
    this.snapshotMarks = marks;
  }

  /** A collection's records as the snapshot holds them, some unparsed (indexes in `raw`). */
  load(name: string, records: readonly (StoredRecord | number)[]): void {
    let kept = 0;
    for (const record of records) if (typeof record === 'number') kept++;
    if (!this.maps.has(name)) {
      // A collection this version no longer has.
      for (const record of records) if (typeof record === 'number') this.raw!.forget(record);
      return;
    }
    // Counted as put (an id twice in a snapshot counts twice): never fewer than there are,
    // which `all` relies on to return the map's values as they are.
    if (kept > 0) this.rawLeft.set(name, kept);
    const upgrade = this.defs.get(name)!.upgrade;
    if (upgrade) {
      const list = records as (StoredRecord | number)[];
      for (let i = 0; i < list.length; i++) {
        const record = list[i]!;
        if (typeof record !== 'number') list[i] = upgrade(record);
      }
    }
    this.pending.set(name, records as (StoredRecord | number)[]); // handed over: see RawSink
  }

  /** Whether some of a collection's records are still unparsed. */
  unparsed(name: string): boolean {
    return this.rawLeft.get(name) !== undefined;
  }

  /** A collection's list from the snapshot, while its map is not filled from it yet. */
  pendingList(name: string): readonly (StoredRecord | number)[] | undefined {
    return this.pending.get(name);
  }

  /**
   * Calls `see` with each of a collection's records (parsed, or the index of one unparsed), in
   * insertion order, without filling its map. Not a generator: V8 does not optimize a loop
   * inside one generator call, which then builds a result object per step (8 MB for the 200,000
   * records of a restart).
   */
  eachInOrder(name: string, see: (value: StoredRecord | number) => void): void {
    const list = this.pending.get(name);
    if (list) for (let i = 0; i < list.length; i++) see(list[i]!);
    else
      this.map(name).forEach((value) => {
        see(value);
      });
  }

  all(name: string): IterableIterator<StoredRecord> {
    const map = this.map(name);
    if (!this.rawLeft.get(name)) return map.values() as IterableIterator<StoredRecord>;
    return this.parsedAll(name, map);
  }

  /**
   * A collection's records in order, each one still unparsed as its JSON text, read from the
   * snapshot or the bytes held. A collection with an `upgrade` is parsed: its text may be of an
   * older shape.
   */
  allOrTexts(name: string): IterableIterator<StoredRecord | string> {
    if (!this.rawLeft.get(name) || this.defs.get(name)?.upgrade) return this.all(name);
    const raw = this.raw!;
    const records: (StoredRecord | string)[] = [];
    // Read now, all of them: the bytes they are read from may be dropped once every record is parsed.
    this.map(name).forEach((value) => {
      records.push(typeof value === 'number' ? raw.text(value) : value);
    });
    return records.values();
  }

  /** A collection's records as a snapshot keeps them: the unparsed ones as they were read (`trusted`: their marks hold). */
  *exported(name: string, trusted: boolean): IterableIterator<StoredRecord | RawLine> {
    // A map never filled: the snapshot's list is the records, in order.
    const values = this.pending.get(name) ?? this.maps.get(name)!.values();
    if (!this.rawLeft.get(name)) {
      yield* values as Iterable<StoredRecord>;
      return;
    }
    for (const value of values) {
      if (typeof value !== 'number') yield value;
      else {
        const line = this.raw!.line(value);
        // A mark not made by these tests says nothing: such records are marked, as may pass.
        line.marked = this.raw!.mayPass(value, trusted);
        yield line;
      }
    }
  }

  /** The record `id` of a collection's map, parsed now if it was kept unparsed. */
  value(name: string, map: Map<string, StoredRecord | number>, id: string): StoredRecord | undefined {
    const value = map.get(id);
    return typeof value === 'number' ? this.parse(name, map, id, value) : value;
  }

  /** Parses a record kept unparsed, and keeps it parsed in its place (its order unchanged). */
  parse(name: string, map: Map<string, StoredRecord | number>, id: string, index: number): StoredRecord {
    const record = this.read(name, index, true);
    map.set(id, record);
    this.leaveRaw(name);
    return record;
  }

  /**
   * A record kept unparsed, parsed now (`keep`: counted as read, see RawRecords) in this
   * version's shape.
   */
  read(name: string, index: number, keep: boolean): StoredRecord {
    const record = keep ? this.raw!.parse(index) : this.raw!.read(index);
    const upgrade = this.defs.get(name)?.upgrade;
    return upgrade ? upgrade(record) : record;
  }

  /** A record kept unparsed is replaced or deleted: it will never be read. */
  forget(name: string, index: number): void {
    this.raw!.forget(index);
    this.leaveRaw(name);
  }

  /**
   * Keeps record `id` of `name`, just written, as its bytes `from[start, end)` in place of the
   * object (Store.holdWhen; see RawRecords.hold), its index keys with it.
   */
  hold(
    name: string,
    map: Map<string, StoredRecord | number>,
    id: string,
    from: Buffer,
    start: number,
    end: number,
    marked: boolean,
    keys: HeldKeys | undefined,
  ): void {
    this.raw ??= RawRecords.empty();
    map.set(id, this.raw.hold(id, from, start, end, marked, keys));
    this.rawLeft.set(name, (this.rawLeft.get(name) ?? 0) + 1);
  }

  /** Whether a collection's record (as its map holds it) is held as it was written (RawRecords.hold). */
  held(value: StoredRecord | number | undefined): value is number {
    return typeof value === 'number' && this.raw!.isHeld(value);
  }

  private leaveRaw(name: string): void {
    const left = this.rawLeft.get(name)! - 1;
    if (left > 0) this.rawLeft.set(name, left);
    else this.rawLeft.delete(name);
  }

  private *parsedAll(name: string, map: Map<string, StoredRecord | number>): IterableIterator<StoredRecord> {
    for (const value of map.values()) yield typeof value === 'number' ? this.parse(name, map, this.raw!.id(value), value) : value;
  }

  /** A collection's map, filled from the snapshot's list the first time it is needed. */
  map(name: string): Map<string, StoredRecord | number> {
    const map = this.maps.get(name);
    if (!map) throw new Error(`unknown collection ${name}`);
    const list = this.pending.get(name);
    if (list) {
      this.pending.delete(name);
      // By index: a for-of here builds a result object per record (see `eachInOrder`).
      for (let i = 0; i < list.length; i++) {
        const value = list[i]!;
        map.set(typeof value === 'number' ? this.raw!.id(value) : value.id, value);
      }
      // An id twice in the snapshot (only a file changed by hand): the map keeps its last record,
      // in the place of its first, but an index built from the list holds the keys of both.
      if (map.size !== list.length) this.duplicated(name);
    }
    return map;
  }
}
