import type { Collection, IndexKey, StoredRecord } from './collection.js';
import { addId, type KeyIds, keysOf, moveId } from './key-ids.js';
import type { HeldKeys } from './raw-records.js';

/** A record's keys as stored beside the snapshot (index-keys.ts), one per index, for a build without parsing it. */
export class StoredEntry {
  constructor(
    public id: string,
    readonly keys: readonly (IndexKey | null)[],
  ) {}
}

/** The ids of a collection's records, in insertion order (its map, keys only). */
export interface CollectionIds {
  readonly size: number;
  keys(): IterableIterator<string>;
}

interface Index<T> {
  keyOf: (record: T) => IndexKey;
  /** key -> ids in insertion order; a key held by a single id stores the bare string. */
  map: KeyIds;
  /**
   * The key every record of the collection holds, as its only key: its ids are then the
   * collection's own, in their order, and `map` is empty. Most collections have one Source and
   * one mode, so their `scope` index would otherwise copy every id into a `Set`: 10 MB for a
   * year of daily billing's payments, and for the event log a new `Set` table every few
   * thousand events as old ones leave (V8 rebuilds a table that deletions have filled).
   */
  whole: string | undefined;
}

/**
 * Secondary indexes of one collection: index name -> key -> ids in insertion order.
 * A key held by a single id stores the bare string, which keeps unique-ish indexes
 * (references) small when the store holds 100,000 records; a key held by every record stores
 * nothing (see `whole`).
 *
 * `update` runs after the collection's map has taken the change, so the map is what a
 * `whole` key reads; an index reads the same as one that kept a `Set` for that key.
 */
export class Indexes<T extends StoredRecord> {
  private readonly byName = new Map<string, Index<T>>();
  // Resolved once: `update` runs for every record written and for every record of a build.
  private readonly list: Index<T>[] = [];
  /** While `build` runs: how many of the collection's records the indexes hold so far. */
  private built: number | undefined;
  /** While `build` runs: the ids of the first `count` values it was given (see `spell`). */
  private builtIds: ((count: number) => Iterable<string>) | undefined;

  constructor(
    private readonly def: Collection<T>,
    private readonly records: CollectionIds,
  ) {
    for (const [name, keyOf] of Object.entries(def.indexes)) {
      const index: Index<T> = { keyOf, map: new Map(), whole: undefined };
      this.byName.set(name, index);
      this.list.push(index);
    }
  }

  /**
   * Indexes the collection's records: its map's values in order, each made a record by `entryOf`,
   * or given as the keys stored for it (`StoredEntry`, see index-keys.ts). `firstIds`, when the
   * values are not the map's (a snapshot's list, before the map is filled), names the ids of the
   * first `count` values, so that the build reads nothing of the map. Walked with `forEach`,
   * not for-of: a build runs once over 100,000 records, in code V8 has not optimized yet, where
   * each step of an iterator builds a result object (8 MB for a restart's first POST).
   */
  build<V>(values: { forEach(visit: (value: V) => void): void }, entryOf: (value: V) => T | StoredEntry, firstIds?: (count: number) => Iterable<string>): void {
    this.built = 0;
    this.builtIds = firstIds;
    try {
      values.forEach((value) => {
        this.built!++;
        const entry = entryOf(value);
        if (entry instanceof StoredEntry) {
          for (let i = 0; i < this.list.length; i++) this.change(this.list[i]!, entry.id, undefined, entry.keys[i] ?? undefined, true);
        } else this.update(undefined, entry);
      });
    } finally {
      this.built = undefined;
      this.builtIds = undefined;
    }
  }

  /** As `update`, from a record held as its bytes (RawRecords.hold) to `next`: its keys before are those held with it. */
  updateHeld(id: string, keys: HeldKeys | undefined, next: T | undefined): void {
    for (let i = 0; i < this.list.length; i++) {
      const index = this.list[i]!;
      const old = this.list.length === 1 ? (keys as IndexKey) : (keys as readonly IndexKey[] | undefined)?.[i];
      this.change(index, id, old, next ? index.keyOf(next) : undefined, next !== undefined);
    }
  }

  update(previous: T | undefined, next: T | undefined): void {
    const record = next ?? previous;
    if (record === undefined) return;
    for (const index of this.list) {
      const { keyOf } = index;
      this.change(index, record.id, previous ? keyOf(previous) : undefined, next ? keyOf(next) : undefined, next !== undefined);
    }
  }

  /** Record `id`'s keys in `index` go from `old` to `now`; `present`: it is in the collection after the change. */
  private change(index: Index<T>, id: string, old: IndexKey, now: IndexKey, present: boolean): void {
    const { map } = index;
    const whole = index.whole;
    if (whole !== undefined) {
      // A record that joins, keeps or leaves with the key every record holds changes nothing.
      if (!present || now === whole) return;
      // The record does not hold it as its only key: the others' ids go into the map, and its own
      // where it holds it among others; its other keys are added below.
      const kept = keysOf(now).includes(whole);
      this.spell(index, id, kept);
      old = kept ? whole : undefined;
    } else if (typeof now === 'string' && map.size === 0 && this.size() === 1) {
      // The collection's first record (or its only one, given its first key).
      index.whole = now;
      return;
    }
    moveId(map, id, old, now);
  }

  ids(index: string, key: string): readonly string[] {
    const found = this.index(index);
    if (found.whole === key) return [...this.records.keys()];
    const entry = found.map.get(key);
    if (entry === undefined) return [];
    return typeof entry === 'string' ? [entry] : [...entry];
  }

  /**
   * Calls `visit` with the ids under `key`, in insertion order, without copying them, until it
   * returns false. A callback rather than a generator: a generator's every step is an object
   * (the event log's cap walks the oldest events of its scope at every commit that raises one).
   */
  each(index: string, key: string, visit: (id: string) => boolean): void {
    const found = this.index(index);
    if (found.whole === key) {
      for (const id of this.records.keys()) if (!visit(id)) return;
      return;
    }
    const entry = found.map.get(key);
    if (entry === undefined) return;
    if (typeof entry === 'string') visit(entry);
    else for (const id of entry) if (!visit(id)) return;
  }

  count(index: string, key: string): number {
    const found = this.index(index);
    if (found.whole === key) return this.records.size;
    const entry = found.map.get(key);
    return entry === undefined ? 0 : typeof entry === 'string' ? 1 : entry.size;
  }

  private index(name: string): Index<T> {
    const index = this.byName.get(name);
    if (!index) throw new Error(`collection ${this.def.name} has no index ${name}`);
    return index;
  }

  /** How many records the indexes cover: the collection's, or those a build has reached. */
  private size(): number {
    return this.built ?? this.records.size;
  }

  /**
   * Ends `whole` for a change to record `id`, which no longer holds it as its only key: the ids
   * of every other record covered (each holds it) go under it in the map, in order, and `id`'s
   * too where it still holds it among others (`kept`), in its place.
   */
  private spell(index: Index<T>, id: string, kept: boolean): void {
    const whole = index.whole!;
    index.whole = undefined;
    // During a build, the records covered are the first `size()` of the map, or of the values
    // the build was given when it can name them (a snapshot's list: the map is not filled).
    let left = this.size();
    for (const other of this.builtIds?.(left) ?? this.records.keys()) {
      if (left-- === 0) break;
      if (other !== id || kept) addId(index.map, whole, other);
    }
  }
}
