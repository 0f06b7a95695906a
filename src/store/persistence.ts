import type { Change, StoredRecord } from './collection.js';

/** Every record, by collection then id: what the store holds in memory. */
export type StoreState = ReadonlyMap<string, ReadonlyMap<string, StoredRecord>>;

/**
 * Where the store's changes go. `append` must not return before the changes have reached the
 * file system: the store answers a request only after it returns.
 */
export interface Persistence {
  load(apply: (changes: readonly Change[]) => void): Promise<void>;
  append(changes: readonly Change[]): void;
  /** `state` is what the store holds, the same as its files: it may be written as a snapshot. */
  close(state?: StoreState): Promise<void>;
}

/** `--in-memory`: nothing is kept. */
export function memoryPersistence(): Persistence {
  return {
    load: async () => {},
    append: () => {},
    close: async () => {},
  };
}
