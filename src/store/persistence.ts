import type { Change } from './collection.js';

/**
 * Where the store's changes go. `append` must not return before the changes have reached the
 * file system: the store answers a request only after it returns.
 */
export interface Persistence {
  load(apply: (changes: readonly Change[]) => void): Promise<void>;
  append(changes: readonly Change[]): void;
  /**
   * Group commit: `appendLater` keeps the changes (encoded now) and `flush` writes everything
   * kept so far at once, returning once it has reached the file system. A persistence without
   * them writes each commit through `append`.
   */
  appendLater?(changes: readonly Change[]): void;
  flush?(): void;
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
