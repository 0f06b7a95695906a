import type { Change, Collection, IndexKey, StoredRecord } from './collection.js';
import { Indexes } from './indexes.js';
import type { Persistence } from './persistence.js';
import type { RaisedEvent } from '../bus/events.js';

export type { RaisedEvent };

/** A domain event raised inside a transaction; published only once the transaction is on disk. */
export type CommitListener = (changes: readonly Change[], events: readonly RaisedEvent[]) => void;

/**
 * The in-memory state of the emulator, made durable by a Persistence.
 *
 * All reads are from memory. All writes go through `transaction`, which runs synchronously:
 * Node serves one request at a time between awaits, so a transaction never interleaves with
 * another, and check-then-write rules (no over-refund, one payment per reference) hold without
 * locks. A transaction that throws changes nothing. A committed transaction is appended to the
 * journal before it is applied, so an answer sent after it is on disk.
 */
export class Store {
  private readonly records = new Map<string, Map<string, StoredRecord>>();
  /** A collection's secondary indexes, built by the first look-up in it (see `index`). */
  private readonly indexes = new Map<string, Indexes<StoredRecord>>();
  private readonly defs = new Map<string, Collection<StoredRecord>>();
  private readonly listeners: CommitListener[] = [];
  private current: Transaction | undefined;
  /** [index name, key function] of each collection, resolved once. */
  private readonly indexDefs = new Map<string, [string, (record: StoredRecord) => IndexKey][]>();
  private readonly finishers: ((tx: Transaction) => void)[] = [];

  constructor(
    collections: readonly Collection<StoredRecord>[],
    private readonly persistence: Persistence,
  ) {
    for (const def of collections) {
      if (this.records.has(def.name)) throw new Error(`collection ${def.name} declared twice`);
      this.records.set(def.name, new Map());
      this.indexDefs.set(def.name, Object.entries(def.indexes));
      this.defs.set(def.name, def);
    }
  }

  /** Loads what the persistence holds. Called once, before the server listens. */
  async open(): Promise<void> {
    await this.persistence.load((changes) => this.apply(changes));
  }

  get<T extends StoredRecord>(def: Collection<T>, id: string): T | undefined {
    return this.map(def.name).get(id) as T | undefined;
  }

  /** Records whose index `index` has key `key`, in insertion order. */
  find<T extends StoredRecord>(def: Collection<T>, index: string, key: string): T[] {
    const map = this.map(def.name);
    return this.index(def.name)
      .ids(index, key)
      .map((id) => map.get(id) as T);
  }

  all<T extends StoredRecord>(def: Collection<T>): IterableIterator<T> {
    return this.map(def.name).values() as IterableIterator<T>;
  }

  count<T extends StoredRecord>(def: Collection<T>): number {
    return this.map(def.name).size;
  }

  /**
   * Runs `work` against a transaction and commits what it wrote; see the class comment.
   * Called while another transaction runs (synchronously, inside its `work`), it is nested:
   * its writes join the outer transaction when it returns and vanish when it throws, and they
   * reach the journal with the outer one, in the same line.
   */
  transaction<R>(work: (tx: Transaction) => R): R {
    const outer = this.current;
    if (outer) {
      // Nested: a savepoint in the outer transaction, rolled back if `work` throws.
      const savepoint = outer.savepoint();
      try {
        const result = work(outer);
        outer.release(savepoint);
        return result;
      } catch (error) {
        outer.rollback(savepoint);
        throw error;
      }
    }
    const tx = new Transaction(this);
    this.current = tx;
    let result: R;
    try {
      result = work(tx);
      // Last writes that belong with the work (an event's delivery status): same journal line.
      for (const finish of this.finishers) finish(tx);
    } finally {
      this.current = undefined;
    }
    // Commit listeners run outside this transaction: what they write is a transaction of its own.
    this.commit(tx.changes(), tx.events);
    return result;
  }

  /**
   * Registers a function that runs at the end of every outermost transaction, before its
   * commit, and may add writes to it.
   */
  beforeCommit(finish: (tx: Transaction) => void): void {
    this.finishers.push(finish);
  }

  /** Records under an index key in insertion order, without copying the index. */
  *iterate<T extends StoredRecord>(def: Collection<T>, index: string, key: string): IterableIterator<T> {
    const map = this.map(def.name);
    for (const id of this.index(def.name).iterate(index, key)) yield map.get(id) as T;
  }

  /** `[index name, key function]` of a collection's indexes, for a transaction's own index. */
  indexesOf(collection: string): readonly [string, (record: StoredRecord) => IndexKey][] {
    return this.indexDefs.get(collection) ?? [];
  }

  countIndex<T extends StoredRecord>(def: Collection<T>, index: string, key: string): number {
    return this.index(def.name).count(index, key);
  }

  onCommit(listener: CommitListener): () => void {
    this.listeners.push(listener);
    return () => this.listeners.splice(this.listeners.indexOf(listener) >>> 0, 1);
  }

  /** Empties the given collections (or all), durably. */
  clear(filter: (record: StoredRecord, collection: string) => boolean = () => true): number {
    const changes: Change[] = [];
    for (const [name, map] of this.records) {
      for (const record of map.values()) if (filter(record, name)) changes.push({ collection: name, id: record.id, record: null });
    }
    this.commit(changes, []);
    return changes.length;
  }

  /** Hands the records to the persistence, which may keep them as a snapshot for the next start. */
  close(): Promise<void> {
    return this.persistence.close(this.records);
  }

  private commit(changes: readonly Change[], events: readonly RaisedEvent[]): void {
    if (changes.length > 0) {
      this.persistence.append(changes);
      this.apply(changes);
    }
    if (changes.length === 0 && events.length === 0) return;
    for (const listener of this.listeners) listener(changes, events);
  }

  private apply(changes: readonly Change[]): void {
    for (const change of changes) {
      const map = this.records.get(change.collection);
      if (!map) continue; // a collection this version no longer has
      const previous = map.get(change.id);
      if (change.record) map.set(change.id, change.record);
      else map.delete(change.id);
      // An index not built yet is built from the records when first used.
      this.indexes.get(change.collection)?.update(previous, change.record ?? undefined);
    }
  }

  /**
   * A collection's indexes, built now from its records if nothing looked them up before: a
   * start on 100,000 stored records then only fills the maps of records, and an index costs
   * its build only once a request needs it. Built from the records in their map's order
   * (insertion order), which is the order a start replaying the files would give them.
   */
  private index(name: string): Indexes<StoredRecord> {
    let indexes = this.indexes.get(name);
    if (!indexes) {
      const def = this.defs.get(name);
      if (!def) throw new Error(`unknown collection ${name}`);
      indexes = new Indexes(def);
      for (const record of this.map(name).values()) indexes.update(undefined, record);
      this.indexes.set(name, indexes);
    }
    return indexes;
  }

  private map(name: string): Map<string, StoredRecord> {
    const map = this.records.get(name);
    if (!map) throw new Error(`unknown collection ${name}`);
    return map;
  }
}

/** The writes of one unit of work; reads see the transaction's own writes (and its parent's) first. */
export class Transaction {
  /** collection -> id -> the last write of that record here. Two levels rather than one map on
   * `collection + id`: a batch of due jobs reads and writes hundreds of thousands of times, and
   * a joined key would be a new string to build and hash on each. */
  private readonly written = new Map<string, Map<string, Change>>();
  /** collection -> index -> key -> ids whose version written here has that key: index look-ups
   * in a transaction with thousands of writes (a batch of due jobs) stay cheap. A collection's
   * is built by the first look-up in it and kept up to date from then on; the collections
   * nobody looks up in (events, most of the writes of a batch) are never indexed. */
  private readonly keyed = new Map<string, Map<string, Map<string, Set<string>>>>();
  /** While a savepoint is open: what each write replaced, to undo it. */
  private undo: [string, string, Change | undefined][] = [];
  private open = 0;
  readonly events: RaisedEvent[] = [];

  constructor(private readonly store: Store) {}

  get<T extends StoredRecord>(def: Collection<T>, id: string): T | undefined {
    const change = this.written.get(def.name)?.get(id);
    if (change) return (change.record ?? undefined) as T | undefined;
    return this.store.get(def, id);
  }

  /** Index lookups see committed records with this transaction's writes laid over them. */
  find<T extends StoredRecord>(def: Collection<T>, index: string, key: string): T[] {
    const below = this.store.find(def, index, key);
    const writes = this.written.get(def.name);
    // Nothing of this collection written here (most lookups): what is below is the answer.
    if (!writes) return below;
    const mine = this.ownIndex(def.name).get(index)?.get(key);
    const result: T[] = [];
    for (const record of below) {
      const change = writes.get(record.id);
      if (!change) result.push(record);
      else if (change.record && mine?.has(record.id)) result.push(change.record as T);
    }
    if (mine && mine.size > 0) {
      const seen = new Set(below.map((r) => r.id));
      for (const id of mine) if (!seen.has(id)) result.push(writes.get(id)!.record as T);
    }
    return result;
  }

  put<T extends StoredRecord>(def: Collection<T>, record: NoInfer<T>): T {
    this.note({ collection: def.name, id: record.id, record });
    return record;
  }

  delete<T extends StoredRecord>(def: Collection<T>, id: string): void {
    this.note({ collection: def.name, id, record: null });
  }

  emit(event: RaisedEvent): void {
    this.events.push(event);
  }

  changes(): Change[] {
    const all: Change[] = [];
    for (const writes of this.written.values()) for (const change of writes.values()) all.push(change);
    return all;
  }

  savepoint(): { undo: number; events: number } {
    this.open++;
    return { undo: this.undo.length, events: this.events.length };
  }

  release(_savepoint: { undo: number; events: number }): void {
    if (--this.open === 0) this.undo = [];
  }

  /** Undoes every write and event since the savepoint. */
  rollback(savepoint: { undo: number; events: number }): void {
    while (this.undo.length > savepoint.undo) {
      const [collection, id, previous] = this.undo.pop()!;
      const writes = this.written.get(collection)!;
      this.reindex(collection, id, writes.get(id)?.record, previous?.record);
      if (previous) writes.set(id, previous);
      else writes.delete(id);
    }
    this.events.length = savepoint.events;
    this.release(savepoint);
  }

  private note(change: Change): void {
    let writes = this.written.get(change.collection);
    if (!writes) this.written.set(change.collection, (writes = new Map()));
    const previous = writes.get(change.id);
    if (this.open > 0) this.undo.push([change.collection, change.id, previous]);
    this.reindex(change.collection, change.id, previous?.record, change.record);
    writes.set(change.id, change);
  }

  /** A collection's index of this transaction's writes, built now if no look-up needed it
   * before. Ids are listed in the order first written here, as they will be once committed. */
  private ownIndex(collection: string): Map<string, Map<string, Set<string>>> {
    let byIndex = this.keyed.get(collection);
    if (!byIndex) {
      this.keyed.set(collection, (byIndex = new Map()));
      for (const change of this.written.get(collection)!.values()) this.reindex(collection, change.id, null, change.record);
    }
    return byIndex;
  }

  /** Moves `id` in the collection's own index from the keys of `before` to those of `after`;
   * a key both have keeps the id where it is. */
  private reindex(collection: string, id: string, before: StoredRecord | null | undefined, after: StoredRecord | null | undefined): void {
    const byIndex = this.keyed.get(collection);
    if (!byIndex) return;
    for (const [index, keyOf] of this.store.indexesOf(collection)) {
      const old = before ? keyOf(before) : undefined;
      const now = after ? keyOf(after) : undefined;
      if (old === now) continue;
      let byKey = byIndex.get(index);
      if (!byKey) byIndex.set(index, (byKey = new Map()));
      const kept = keysOf(now);
      for (const k of keysOf(old)) if (!kept.includes(k)) byKey.get(k)?.delete(id);
      const had = keysOf(old);
      for (const k of kept) {
        if (had.includes(k)) continue;
        let ids = byKey.get(k);
        if (!ids) byKey.set(k, (ids = new Set()));
        ids.add(id);
      }
    }
  }
}

function keysOf(key: IndexKey): readonly string[] {
  if (key === undefined) return [];
  return typeof key === 'string' ? [key] : key;
}
