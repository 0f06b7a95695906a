import type { Change, Collection, IndexKey, StoredRecord } from './collection.js';
import { importedColumns, storedEntries, type KeyColumns, type KeySet } from './index-keys.js';
import { Indexes, type CollectionIds } from './indexes.js';
import type { Persistence } from './persistence.js';
import { applyChanges, holdWritten } from './apply.js';
import { linesOf, type RawRecords, type SnapshotMarking } from './raw-records.js';
import { RecordMaps } from './record-maps.js';
import { Transaction } from './transaction.js';
import { keptDueTimes, Watches, type DueEach, type DueTimes } from './watches.js';
import type { RaisedEvent } from '../bus/events.js';

export type { DueTimes, RaisedEvent };
export { Transaction };

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
  /** Each collection's records, some still unparsed in the snapshot they were read from. */
  private readonly records: RecordMaps;
  /** Per collection, its watches (see `watch`). */
  private readonly watches = new Watches();
  /** A collection's secondary indexes, built by the first look-up in it (see `index`). */
  private readonly indexes = new Map<string, Indexes<StoredRecord>>();
  private readonly defs = new Map<string, Collection<StoredRecord>>();
  private readonly listeners: CommitListener[] = [];
  private current: Transaction | undefined;
  /** [index name, key function] of each collection, resolved once. */
  private readonly indexDefs = new Map<string, [string, (record: StoredRecord) => IndexKey][]>();
  private readonly finishers: ((tx: Transaction) => void)[] = [];
  /** Per collection, which of its records are held as written (`holdWhen`). */
  private readonly held = new Map<string, (record: StoredRecord) => boolean>();
  /** What `afterCommit` holds until the outermost transaction running now has committed. */
  private afterCommits: (() => void)[] = [];

  constructor(
    collections: readonly Collection<StoredRecord>[],
    private readonly persistence: Persistence,
  ) {
    for (const def of collections) {
      if (this.defs.has(def.name)) throw new Error(`collection ${def.name} declared twice`);
      this.indexDefs.set(def.name, Object.entries(def.indexes));
      this.defs.set(def.name, def);
    }
    this.records = new RecordMaps(this.defs, (name) => this.indexes.delete(name));
  }

  /** Loads what the persistence holds. Called once, before the server listens. */
  async open(): Promise<void> {
    await this.persistence.load((changes) => applyChanges(this.records, this.indexes, this.defs, changes), {
      begin: (raw, marks) => {
        this.records.raw = raw;
        this.records.snapshotMarks = marks;
      },
      collection: (name, records) => this.records.load(name, records),
    });
  }

  get<T extends StoredRecord>(def: Collection<T>, id: string): T | undefined {
    return this.records.value(def.name, this.records.map(def.name), id) as T | undefined;
  }

  /**
   * Declares a test on a collection's records whose passing ones must be found at start
   * without parsing the others (the scheduler's due work): a clean stop marks, in the
   * snapshot, each record that passes one of its collection's tests, and `watched` yields the
   * records that may pass. `name` identifies the test across versions: a snapshot marked by
   * other tests than this version's is not trusted (every record of the collection may pass).
   * With `times`, the stop also keeps each record's due times beside the snapshot, and `due`
   * hands them over without parsing the records (100,000 open sessions at a restart).
   */
  watch<T extends StoredRecord>(def: Collection<T>, name: string, test: (record: T) => boolean, times?: DueTimes<T>): void {
    this.watches.add(def.name, name, test as (record: StoredRecord) => boolean, times as DueTimes | undefined);
  }

  /**
   * The records of a collection that may pass its watches' tests, in insertion order: every
   * record but those read unparsed from a snapshot that was marked by these tests and did not
   * mark them. A record parsed since is yielded whether or not it passes. One still unparsed is
   * parsed for this and not kept (a read parses it again): most have nothing due for a while.
   */
  watched<T extends StoredRecord>(def: Collection<T>): IterableIterator<T> {
    const records = this.records;
    if (!records.unparsed(def.name)) return records.map(def.name).values() as IterableIterator<T>;
    const trusted = this.marksTrusted(def.name);
    const found: StoredRecord[] = [];
    records.eachInOrder(def.name, (value) => {
      if (typeof value !== 'number') found.push(value);
      else if (records.raw!.mayPass(value, trusted)) found.push(records.read(def.name, value, false));
    });
    return found.values() as IterableIterator<T>;
  }

  /**
   * Calls `each` with the due times (see `watch`) of the records of a collection that have some
   * by the watch `name`, in insertion order. An unparsed record's are those kept beside the
   * snapshot, or it is parsed for them and dropped; those the snapshot's marks say have none are
   * skipped.
   */
  due<T extends StoredRecord>(def: Collection<T>, name: string, each: DueEach): void {
    const { times, column } = this.watches.times(def.name, name);
    const records = this.records;
    const trusted = records.unparsed(def.name) && this.marksTrusted(def.name);
    // Read at the first unparsed record to look at: not at all when no record is marked.
    let kept: ReturnType<typeof keptDueTimes> | undefined;
    records.eachInOrder(def.name, (value) => {
      if (typeof value === 'number') {
        const raw = records.raw!;
        if (!raw.mayPass(value, trusted)) return;
        kept ??= keptDueTimes(this.persistence.storedKeys?.(this.keySets(def.name).due), column);
        if (kept(raw.position(value), raw.id(value), each)) return;
        value = records.read(def.name, value, false);
      }
      const found = times.of(value);
      if (found) each(value.id, found[0], found[1]);
    });
  }

  /**
   * Records whose index `index` has key `key`, in insertion order. A look-up that finds nothing
   * leaves a collection's map unfilled (see `index`): 100,000 paid payments after a restart.
   */
  find<T extends StoredRecord>(def: Collection<T>, index: string, key: string): T[] {
    const indexes = this.index(def.name);
    let ids = indexes.ids(index, key);
    if (ids.length === 0) return [];
    const map = this.records.map(def.name);
    // Filling the map may have dropped an index built from a list with an id twice (see RecordMaps.map).
    if (this.indexes.get(def.name) !== indexes) ids = this.index(def.name).ids(index, key);
    return ids.map((id) => this.records.value(def.name, map, id) as T);
  }

  /** In insertion order; with `texts`, each one still unparsed as its JSON text instead (an export copies it as it is). */
  all<T extends StoredRecord, Texts extends boolean = false>(def: Collection<T>, texts?: Texts): IterableIterator<Texts extends true ? T | string : T> {
    return (texts ? this.records.allOrTexts(def.name) : this.records.all(def.name)) as IterableIterator<Texts extends true ? T | string : T>;
  }

  count<T extends StoredRecord>(def: Collection<T>): number {
    return this.records.map(def.name).size;
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
    let after: (() => void)[] = [];
    try {
      result = work(tx);
      // Last writes that belong with the work (an event's delivery status): same journal line.
      for (const finish of this.finishers) finish(tx);
    } finally {
      this.current = undefined;
      // Dropped when the work throws: what it would have followed is not there.
      after = this.afterCommits;
      this.afterCommits = [];
    }
    // Commit listeners run outside this transaction: what they write is a transaction of its own.
    this.commit(tx.changes(), tx.events);
    for (const then of after) then();
    return result;
  }

  /**
   * Runs `then` once the outermost transaction running now has committed, or at once outside
   * one: work that reads what a transaction wrote (a snapshot import's pending deliveries) while
   * that transaction may be nested in another (the import's `Idempotency-Key` result).
   */
  afterCommit(then: () => void): void {
    if (this.current) this.afterCommits.push(then);
    else then();
  }

  /**
   * Registers a function that runs at the end of every outermost transaction, before its
   * commit, and may add writes to it.
   */
  beforeCommit(finish: (tx: Transaction) => void): void {
    this.finishers.push(finish);
  }

  /**
   * Calls `visit` with the records under an index key in insertion order, without copying the
   * index, until it returns false. With `held`, a record held as it was written (`holdWhen`)
   * goes to `held` by its id instead, not parsed.
   */
  each<T extends StoredRecord>(def: Collection<T>, index: string, key: string, visit: (record: T) => boolean, held?: (id: string) => boolean): void {
    const map = this.records.map(def.name);
    this.index(def.name).each(index, key, (id) => (held && this.records.held(map.get(id)) ? held(id) : visit(this.records.value(def.name, map, id) as T)));
  }

  /**
   * Records of `def` that pass `when` as they are written are kept as their JSON bytes rather
   * than as objects, until something reads them (see RawRecords.hold): for records seldom read
   * again once written, such as the settled events of the log (a year of daily billing raises
   * 730,000, and each, as an object, lived in V8's old generation until the log's cap let it go,
   * and then was garbage there). File-backed stores only: the bytes are the journal's.
   */
  holdWhen<T extends StoredRecord>(def: Collection<T>, when: (record: T) => boolean): void {
    this.held.set(def.name, when as (record: StoredRecord) => boolean);
  }

  /** Whether record `id` is held as it was written (`holdWhen`), not read since. */
  isHeld<T extends StoredRecord>(def: Collection<T>, id: string): boolean {
    return this.records.held(this.records.map(def.name).get(id));
  }

  /** `[index name, key function]` of a collection's indexes, for a transaction's own index. */
  indexesOf(collection: string): readonly [string, (record: StoredRecord) => IndexKey][] {
    return this.indexDefs.get(collection) ?? [];
  }

  countIndex<T extends StoredRecord>(def: Collection<T>, index: string, key: string): number {
    const count = this.index(def.name).count(index, key);
    if (count === 0 || !this.records.pendingList(def.name)) return count;
    // Built from the snapshot's list, which may hold an id twice: counted from the map (see `find`).
    this.records.map(def.name);
    return this.index(def.name).count(index, key);
  }

  onCommit(listener: CommitListener): () => void {
    this.listeners.push(listener);
    return () => this.listeners.splice(this.listeners.indexOf(listener) >>> 0, 1);
  }

  /** Empties the given collections (or all), durably. */
  clear(filter?: (record: StoredRecord, collection: string) => boolean): number {
    const changes: Change[] = [];
    for (const name of this.records.names()) {
      const map = this.records.map(name);
      for (const [id, value] of map) {
        // Without a filter, a record need not be parsed to be deleted.
        if (!filter || filter(typeof value === 'number' ? this.records.parse(name, map, id, value) : value, name))
          changes.push({ collection: name, id, record: null });
      }
    }
    this.commit(changes, []);
    return changes.length;
  }

  /** Whether `replaceAll` can be done now: outside a transaction, by a persistence that can write a snapshot now. */
  canReplaceAll(): boolean {
    return this.current === undefined && this.persistence.replace !== undefined && this.persistence.canReplace?.() !== false;
  }

  /** When only a compaction keeps `replaceAll` from being done: stops it, resolving once it is gone (Persistence.stopCompaction). */
  stopCompaction = (): Promise<void> | undefined => (this.current === undefined ? this.persistence.stopCompaction?.() : undefined);

  /** How a snapshot marks records: by the tests the store watches (see `watch`). */
  marking(): SnapshotMarking {
    return this.watches.marking();
  }

  /** Every record replaced by `collections`' (a number: one unparsed in `raw`), the persistence writing first (a throw changes nothing); no listener runs. */
  replaceAll(raw: RawRecords, collections: readonly [string, (StoredRecord | number)[]][], marking: SnapshotMarking): void {
    if (!this.canReplaceAll()) throw new Error('the store cannot be replaced now');
    const keys: [KeySet, KeyColumns][] = [];
    for (const [name, list] of collections) {
      const { keys: indexed, due } = this.keySets(name);
      for (const set of [indexed, due]) {
        const columns = set.columns.length > 0 ? importedColumns(set, list, raw, set === indexed ? raw.heldKeys(name) : 'marks') : undefined;
        if (columns) keys.push([set, columns]);
      }
    }
    this.persistence.replace!(
      collections.map(([name, list]) => [name, linesOf(raw, list)]),
      marking,
      keys,
    );
    this.records.replace(raw, marking.marks);
    this.indexes.clear();
    for (const [name, list] of collections) this.records.load(name, list);
  }

  /** Hands the records to the persistence, which may keep them as a snapshot for the next start. */
  async close(): Promise<void> {
    try {
      await this.persistence.close({
        collections: [...this.records.names()].map((name) => [name, this.records.exported(name, this.marksTrusted(name))]),
        marking: this.watches.marking(),
        keySets: new Map([...this.defs.keys()].map((name) => [name, Object.values(this.keySets(name))])),
      });
    } finally {
      this.records.raw?.close(); // the snapshot the unparsed records are read from
    }
  }

  /** Whether the snapshot's marks on a collection's records hold for this version's tests of it. */
  private marksTrusted(name: string): boolean {
    return this.watches.trusted(name, this.records.snapshotMarks);
  }

  /** What is kept beside a snapshot of a collection's records (index-keys.ts). */
  private keySets(name: string) {
    return this.watches.keySets(this.defs.get(name)!, this.indexDefs.get(name)!);
  }

  private commit(changes: readonly Change[], events: readonly RaisedEvent[]): void {
    if (changes.length > 0) {
      const replaced = this.records.replaced(changes);
      const written = this.persistence.append(changes, replaced);
      applyChanges(this.records, this.indexes, this.defs, changes, replaced);
      if (written && this.held.size > 0) holdWritten(this.records, this.indexDefs, this.held, this.watches, changes, written);
    }
    if (changes.length === 0 && events.length === 0) return;
    for (const listener of this.listeners) listener(changes, events);
  }

  /**
   * A collection's indexes, built on first use (not at start) from its records in their map's
   * order, the order a replay of the files would give them. A record kept unparsed stays in the
   * file (kept parsed, the 200,000 records of the first `POST /v1/sessions` after a restart
   * would double the memory): its keys are those an import held or the persistence kept (index-keys.ts), or it is
   * parsed for them and dropped. A collection whose map the snapshot has not filled yet is
   * indexed from the snapshot's list, and its map is left unfilled until a record is needed
   * (100,000 paid payments: 7 MB, the map's table and the tables it grew through).
   */
  private index(name: string): Indexes<StoredRecord> {
    let indexes = this.indexes.get(name);
    if (!indexes) {
      const def = this.defs.get(name);
      if (!def) throw new Error(`unknown collection ${name}`);
      const records = this.records;
      const list = records.pendingList(name);
      const values = list ?? records.map(name);
      // The ids under a key every record holds (Indexes' `whole`) are the map's, filled when asked.
      const filled = () => records.map(name);
      const ids: CollectionIds = {
        get size() {
          return filled().size;
        },
        keys: () => filled().keys(),
      };
      indexes = new Indexes(def, ids);
      const size = this.indexDefs.get(name)!.length;
      const kept = records.unparsed(name) ? (records.raw!.heldKeys(name) ?? this.persistence.storedKeys?.(this.keySets(name).keys)) : undefined;
      const stored = storedEntries(kept, size);
      const idOf = (value: StoredRecord | number) => (typeof value === 'number' ? records.raw!.id(value) : value.id);
      indexes.build(
        values,
        (value) => (typeof value !== 'number' ? value : (stored(records.raw!.id(value), records.raw!.position(value)) ?? records.read(name, value, false))),
        // The ids a key every record held so far is spelled out to (see Indexes): from the list too.
        list && ((count) => list.slice(0, count).map(idOf)),
      );
      this.indexes.set(name, indexes);
    }
    return indexes;
  }
}
