import type { Change } from './collection.js';

/**
 * Where the store's changes go. `append` must not return before the changes have reached the
 * file system: the store answers a request only after it returns.
 */
export interface Persistence {
  load(apply: (changes: readonly Change[]) => void): Promise<void>;
  append(changes: readonly Change[]): void;
  close(): Promise<void>;
}

/** `--in-memory`: nothing is kept. */
export function memoryPersistence(): Persistence {
  return {
    load: async () => {},
    append: () => {},
    close: async () => {},
  };
}
