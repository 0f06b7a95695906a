import type { Change, Replaced, StoredRecord } from './collection.js';
import type { KeyColumns, KeySet } from './index-keys.js';
import type { RawLine, SnapshotMarking } from './raw-records.js';
import type { RawSink } from './snapshot-file.js';

/** What the store holds in memory, as a snapshot would keep it. */
export interface StoreState {
  /** Every record by collection, in order; one never parsed since it was read is a RawLine. */
  collections: Iterable<[string, Iterable<StoredRecord | RawLine>]>;
  marking: SnapshotMarking;
  /** What is kept beside a snapshot of each collection's records (index-keys.ts): its index keys and due times. */
  keySets: ReadonlyMap<string, readonly KeySet[]>;
}

/**
 * The index keys and due times of a snapshot imported whole (index-keys.ts: importedColumns),
 * each set's columns, kept beside it as a clean stop keeps them: the stop after the import need
 * not write the snapshot again, and a start after a crash builds its indexes from them.
 */
export type ImportedKeys = readonly (readonly [KeySet, KeyColumns])[];

/**
 * The line `append` wrote, valid until the next append: the bytes of each record it wrote whole
 * (`spans`: the change's index, then the record's first byte and the byte after its last, for
 * each), which the store may keep in place of the record (Store.holdWhen).
 */
export interface Written {
  bytes: Buffer;
  spans: readonly number[];
}

/**
 * Where the store's changes go. `append` must not return before the changes have reached the
 * file system: the store answers a request only after it returns.
 */
export interface Persistence {
  /** `raw`, when given, takes the records the persistence keeps unparsed (see RawRecords). */
  load(apply: (changes: readonly Change[]) => void, raw?: RawSink): Promise<void>;
  /**
   * `replaced`, when given, is what each change replaces in memory: a record (the journal may
   * then write only the fields that changed), or the index of one kept unparsed.
   */
  append(changes: readonly Change[], replaced?: Replaced): Written | undefined;
  /**
   * Replaces everything with `collections` (a snapshot imported whole), written as the snapshot
   * in one step: a crash at any point leaves the old state or the new one. Only when
   * `canReplace` says so; a throw leaves the old state. `keys`: what to keep beside it.
   */
  replace?(collections: Iterable<[string, Iterable<StoredRecord | RawLine>]>, marking: SnapshotMarking, keys?: ImportedKeys): void;
  /** Whether `replace` can be done now (not while a compaction writes a snapshot of its own). */
  canReplace?(): boolean;
  /**
   * When `replace` waits only for a compaction: stops it (the snapshot `replace` writes covers
   * everything it would have) and resolves once it has exited. Undefined when there is none.
   */
  stopCompaction?(): Promise<void> | undefined;
  /** `state` is what the store holds, the same as its files: it may be written as a snapshot. */
  close(state?: StoreState): Promise<void>;
  /**
   * The keys of `set` kept for the records `load` handed over unparsed: per column, each
   * record's by its position in its collection (RawRecords.position); undefined when none are
   * kept. A value may be of the wrong shape (index-keys.ts: KeyColumn.valid).
   */
  storedKeys?(set: KeySet): KeyColumns | undefined;
}

/** `--in-memory`: nothing is kept. */
export function memoryPersistence(): Persistence {
  return {
    load: async () => {},
    append: () => undefined,
    replace: () => {},
    close: async () => {},
  };
}
