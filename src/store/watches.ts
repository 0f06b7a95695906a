import type { Collection, IndexKey, StoredRecord } from './collection.js';
import { indexColumn, timeColumn, type KeyColumn, type KeyColumns, type KeySet } from './index-keys.js';
import type { Marks, SnapshotMarking } from './raw-records.js';

/** A watch's due times of a record: [due, runs at], or undefined when it has none (see Store.watch). */
export interface DueTimes<T extends StoredRecord = StoredRecord> {
  of(record: T): readonly [number, number] | undefined;
  /** What `of` depends on (its functions' sources), for the fingerprint of the times kept (index-keys.ts). */
  source: string;
}

/** What `Store.due` hands over for a record: its id, when its job falls due, and when it runs. */
export type DueEach = (id: string, due: number, at: number) => void;

/**
 * For a start: the due times kept (`columns`, the collection's due-times KeySet as read) of the
 * watch whose columns start at `column` (see `Watches.keySets`). For the record `id` at
 * `position`, calls `each` with them and returns true, or returns true when it had none; returns
 * false when the file holds nothing of the right shape for it (it is then parsed for them).
 */
export function keptDueTimes(columns: KeyColumns | undefined, column: number): (position: number, id: string, each: DueEach) => boolean {
  const dues = columns?.[column];
  const afters = columns?.[column + 1];
  if (!dues || !afters) return () => false;
  return (position, id, each) => {
    const due = dues[position];
    const after = afters[position];
    if (typeof due === 'number' && typeof after === 'number') each(id, due, due + after);
    else if (due !== null || after !== null) return false; // null and null: none when the snapshot was written
    return true;
  };
}

interface Watch {
  name: string;
  test: (record: StoredRecord) => boolean;
  times: DueTimes | undefined;
}

/**
 * The store's watches (Store.watch), per collection, and what a clean stop keeps of them beside
 * the snapshot: the names of the tests it marked records by, and the due times of the watches
 * that have them (index-keys.ts).
 */
export class Watches {
  private readonly byCollection = new Map<string, Watch[]>();
  private readonly sets = new Map<string, { keys: KeySet; due: KeySet }>();

  add(collection: string, name: string, test: (record: StoredRecord) => boolean, times: DueTimes | undefined): void {
    const list = this.byCollection.get(collection) ?? [];
    list.push({ name, test, times });
    this.byCollection.set(collection, list);
    this.sets.delete(collection);
  }

  /** How a snapshot marks the records: per collection, the names of its tests; a record, whether it passes one. */
  marking(): SnapshotMarking {
    const marks: Record<string, string[]> = {};
    for (const [name, list] of this.byCollection) marks[name] = list.map((watch) => watch.name);
    return { marks, marked: (name, record) => this.marked(name, record) };
  }

  /** Whether `record` of `collection` passes one of its tests (a snapshot marks it). */
  marked(collection: string, record: StoredRecord): boolean {
    return this.byCollection.get(collection)?.some((watch) => watch.test(record)) === true;
  }

  /** Whether a snapshot's marks (`marks`) on a collection's records hold for this version's tests of it. */
  trusted(collection: string, marks: Marks | undefined): boolean {
    const marked = marks?.[collection];
    return marked !== undefined && (this.byCollection.get(collection) ?? []).every((watch) => marked.includes(watch.name));
  }

  /** The due times of watch `name`, and the first of its two columns (due, then how long after it the job runs) in the collection's due-times KeySet. */
  times(collection: string, name: string): { times: DueTimes; column: number } {
    let column = 0;
    for (const watch of this.byCollection.get(collection) ?? []) {
      if (!watch.times) continue;
      if (watch.name === name) return { times: watch.times, column };
      column += 2;
    }
    throw new Error(`${collection} has no watch ${name} with due times`);
  }

  /**
   * What is kept beside a snapshot of the collection's records: its indexes' keys, and its
   * watches' due times (on a line of their own, named `<collection> due`: a start reads them
   * and not the keys).
   */
  keySets(def: Collection<StoredRecord>, indexes: readonly [string, (record: StoredRecord) => IndexKey][]): { keys: KeySet; due: KeySet } {
    let sets = this.sets.get(def.name);
    if (!sets) {
      const due: KeyColumn[] = [];
      for (const { name, times } of this.byCollection.get(def.name) ?? []) {
        if (!times) continue;
        due.push(timeColumn(`${name}.due`, times.source, (record) => times.of(record)?.[0]));
        // How long after its due time a job runs: 0 for nearly all (2 bytes, and a small integer
        // when read, where a second time would be 14 bytes and a number object).
        due.push(
          timeColumn(`${name}.after`, times.source, (record) => {
            const found = times.of(record);
            return found && found[1] - found[0];
          }),
        );
      }
      sets = {
        keys: { name: def.name, def, columns: indexes.map(([name, keyOf]) => indexColumn(name, keyOf)) },
        due: { name: `${def.name} due`, def, columns: due },
      };
      this.sets.set(def.name, sets);
    }
    return sets;
  }
}
