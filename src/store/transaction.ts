import type { Change, Collection, IndexKey, StoredRecord } from './collection.js';
import { holds, type KeyIds, moveId } from './key-ids.js';
import type { RaisedEvent } from '../bus/events.js';

/** What a transaction reads below its own writes: the store's committed records. */
export interface CommittedRecords {
  get<T extends StoredRecord>(def: Collection<T>, id: string): T | undefined;
  find<T extends StoredRecord>(def: Collection<T>, index: string, key: string): T[];
  /** `[index name, key function]` of a collection's indexes. */
  indexesOf(collection: string): readonly [string, (record: StoredRecord) => IndexKey][];
  count<T extends StoredRecord>(def: Collection<T>): number;
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
  private readonly keyed = new Map<string, Map<string, KeyIds>>();
  /**
   * While a savepoint is open: what each write replaced, to undo it, as triples laid flat
   * (collection, id, the change before or undefined): a scheduled job's writes are each noted
   * here, and a triple of its own would be one more object per write for the collector.
   */
  private readonly undo: (string | Change | undefined)[] = [];
  /**
   * How many entries of `undo` are in use: emptied by setting this to 0, not by a new array (each
   * scheduled job is a savepoint of its own, and its log grew from nothing again each time). The
   * entries past it are stale, and overwritten.
   */
  private undone = 0;
  private open = 0;
  readonly events: RaisedEvent[] = [];

  constructor(private readonly store: CommittedRecords) {}

  /**
   * Whether the collection holds no record, here or below: a look-up that can find nothing is
   * skipped (the outcome scripts each recurring charge would read three times).
   */
  none<T extends StoredRecord>(def: Collection<T>): boolean {
    return this.written.get(def.name) === undefined && this.store.count(def) === 0;
  }

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
      // A record deleted and written again here comes with the ids new here, last (see Change).
      else if (change.record && !change.recreated && holds(mine, record.id)) result.push(change.record as T);
    }
    if (mine !== undefined) {
      const seen = new Set(below.map((r) => r.id));
      for (const id of typeof mine === 'string' ? [mine] : mine) {
        const change = writes.get(id)!;
        if (!seen.has(id) || change.recreated) result.push(change.record as T);
      }
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

  /** Every write, grouped by collection, in the order first written (one deleted and written again: last); made at its full length at once (a batch writes thousands). */
  changes(): Change[] {
    let total = 0;
    this.written.forEach((writes) => {
      total += writes.size;
    });
    const all = new Array<Change>(total);
    let i = 0;
    this.written.forEach((writes) => {
      writes.forEach((change) => {
        all[i++] = change;
      });
    });
    return all;
  }

  savepoint(): { undo: number; events: number } {
    this.open++;
    return { undo: this.undone, events: this.events.length };
  }

  release(_savepoint: { undo: number; events: number }): void {
    if (--this.open === 0) this.undone = 0;
  }

  /** Undoes every write and event since the savepoint. */
  rollback(savepoint: { undo: number; events: number }): void {
    const undo = this.undo;
    while (this.undone > savepoint.undo) {
      const previous = undo[--this.undone] as Change | undefined;
      const id = undo[--this.undone] as string;
      const collection = undo[--this.undone] as string;
      const writes = this.written.get(collection)!;
      this.reindex(collection, id, writes.get(id)?.record, previous?.record);
      if (previous) writes.set(id, previous);
      else writes.delete(id);
    }
    this.events.length = savepoint.events;
    this.release(savepoint);
  }

  private note(written: Change): void {
    let writes = this.written.get(written.collection);
    if (!writes) this.written.set(written.collection, (writes = new Map()));
    const previous = writes.get(written.id);
    let change = written;
    if (previous !== undefined && written.record !== null && (previous.record === null || previous.recreated)) {
      // Deleted here first: it goes last (see Change), here as in the store.
      change = { collection: written.collection, id: written.id, record: written.record, recreated: true };
      if (previous.record === null) writes.delete(written.id);
    }
    if (this.open > 0) {
      const undo = this.undo;
      undo[this.undone++] = change.collection;
      undo[this.undone++] = change.id;
      undo[this.undone++] = previous;
    }
    this.reindex(change.collection, change.id, previous?.record, change.record);
    writes.set(change.id, change);
  }

  /** A collection's index of this transaction's writes, built now if no look-up needed it
   * before. Ids are listed in the order first written here, as they will be once committed. */
  private ownIndex(collection: string): Map<string, KeyIds> {
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
      moveId(byKey, id, old, now);
    }
  }
}
