import type { Collection, IndexKey, StoredRecord } from './collection.js';
import { indexColumn, timeColumn, type KeyColumn, type KeySet } from './index-keys.js';
import type { Marks, SnapshotMarking } from './raw-records.js';

/** A watch's due times of a record: [due, runs at], or undefined when it has none (see Store.watch). */
export interface DueTimes<T extends StoredRecord = StoredRecord> {
  of(record: T): readonly [number, number] | undefined;
  /** What `of` depends on (its functions' sources), for the fingerprint of the times kept (index-keys.ts). */
  source: string;
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
    return { marks, marked: (name, record) => this.byCollection.get(name)?.some((watch) => watch.test(record)) === true };
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
