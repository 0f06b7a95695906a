import type { Change, Collection, StoredRecord } from './collection.js';
import { Indexes } from './indexes.js';
import type { Persistence } from './persistence.js';

/** A domain event raised inside a transaction; published only once the transaction is on disk. */
export interface RaisedEvent {
  /** The event's id (its record in the events collection). */
  id: string;
  name: string;
  source: string;
  mode: 'test' | 'live';
  data: Record<string, unknown>;
}

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
  private readonly indexes = new Map<string, Indexes<StoredRecord>>();
  private readonly listeners: CommitListener[] = [];
  private current: Transaction | undefined;
  private readonly finishers: ((tx: Transaction) => void)[] = [];

  constructor(
    collections: readonly Collection<StoredRecord>[],
    private readonly persistence: Persistence,
  ) {
    for (const def of collections) {
      if (this.records.has(def.name)) throw new Error(`collection ${def.name} declared twice`);
      this.records.set(def.name, new Map());
      this.indexes.set(def.name, new Indexes(def));
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
    return this.indexes.get(def.name)!.ids(index, key).map((id) => map.get(id) as T);
  }

  all<T extends StoredRecord>(def: Collection<T>): IterableIterator<T> {
    return this.map(def.name).values() as IterableIterator<T>;
  }

  count(def: Collection<StoredRecord>): number {
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
    const tx = new Transaction(this, outer);
    this.current = tx;
    let result: R;
    try {
      result = work(tx);
    } finally {
      this.current = outer;
    }
    if (outer) {
      outer.absorb(tx);
      return result;
    }
    // Last writes that belong with the work (an event's delivery status): same journal line.
    if (this.finishers.length > 0) {
      this.current = tx;
      try {
        for (const finish of this.finishers) finish(tx);
      } finally {
        this.current = undefined;
      }
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
    for (const id of this.indexes.get(def.name)!.iterate(index, key)) yield map.get(id) as T;
  }

  countIndex<T extends StoredRecord>(def: Collection<T>, index: string, key: string): number {
    return this.indexes.get(def.name)!.count(index, key);
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

  close(): Promise<void> {
    return this.persistence.close();
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
      this.indexes.get(change.collection)!.update(previous, change.record ?? undefined);
    }
  }

  private map(name: string): Map<string, StoredRecord> {
    const map = this.records.get(name);
    if (!map) throw new Error(`unknown collection ${name}`);
    return map;
  }
}

/** The writes of one unit of work; reads see the transaction's own writes (and its parent's) first. */
export class Transaction {
  private readonly written = new Map<string, Change>();
  readonly events: RaisedEvent[] = [];

  constructor(
    private readonly store: Store,
    private readonly parent?: Transaction,
  ) {}

  get<T extends StoredRecord>(def: Collection<T>, id: string): T | undefined {
    const change = this.written.get(`${def.name}\0${id}`);
    if (change) return (change.record ?? undefined) as T | undefined;
    return this.parent ? this.parent.get(def, id) : this.store.get(def, id);
  }

  /** Index lookups see committed records with this transaction's writes laid over them. */
  find<T extends StoredRecord>(def: Collection<T>, index: string, key: string): T[] {
    const below = this.parent ? this.parent.find(def, index, key) : this.store.find(def, index, key);
    // Nothing written yet (most lookups, e.g. a new session's reference check): what is below is the answer.
    if (this.written.size === 0) return below;
    const byId = new Map<string, StoredRecord>(below.map((r) => [r.id, r]));
    for (const change of this.written.values()) {
      if (change.collection !== def.name) continue;
      if (change.record) byId.set(change.id, change.record);
      else byId.delete(change.id);
    }
    const keyOf = def.indexes[index]!;
    return [...byId.values()].filter((r) => {
      const keys = keyOf(r as T);
      return keys === key || (Array.isArray(keys) && keys.includes(key));
    }) as T[];
  }

  put<T extends StoredRecord>(def: Collection<T>, record: NoInfer<T>): T {
    this.written.set(`${def.name}\0${record.id}`, { collection: def.name, id: record.id, record });
    return record;
  }

  delete<T extends StoredRecord>(def: Collection<T>, id: string): void {
    this.written.set(`${def.name}\0${id}`, { collection: def.name, id, record: null });
  }

  emit(event: RaisedEvent): void {
    this.events.push(event);
  }

  changes(): Change[] {
    return [...this.written.values()];
  }

  /** Takes over the writes and events of a nested transaction that finished. */
  absorb(child: Transaction): void {
    for (const [key, change] of child.written) this.written.set(key, change);
    this.events.push(...child.events);
  }
}
