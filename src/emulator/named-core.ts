import type { App } from '../app.js';
import { type FilePersistenceOptions, filePersistence } from '../store/file-persistence.js';
import { namespaceDir, namespaceEntries, removeLeftovers } from '../store/namespace-dirs.js';
import { memoryPersistence } from '../store/persistence.js';
import { DataDirUnusable, WriteRefused } from '../store/write-refused.js';
import { namespaceClock } from './clock.js';
import { type Core, type CoreOptions, createCore } from './core.js';

/** What every core of one payemu shares: all of CoreOptions but what is each core's own. */
export type SharedCoreOptions = Omit<CoreOptions, 'persistence' | 'clockFrom' | 'namespace' | 'abandoned'>;

/**
 * How a named namespace's core is made: in memory, or file-backed in its own directory (the
 * same files as the data directory's; its lock covers them), its clock where the default's
 * stands (or its own saved one), started at once.
 */
export function namedCoreBuilder(
  shared: SharedCoreOptions,
  root: () => App,
  dataDir: string | undefined,
  persistenceOptions: FilePersistenceOptions,
  freezeClock: boolean | undefined,
): (name: string) => Promise<Core> {
  return async (name) => {
    // Its compactions are heard as its own, like its other events (`namespace` in the payload).
    const onCompaction: FilePersistenceOptions['onCompaction'] = (result) => shared.bus.emit('store.compacted', { ...result, namespace: name });
    const persistence =
      dataDir === undefined ? memoryPersistence() : filePersistence(namespaceDir(dataDir, name), { ...persistenceOptions, onCompaction, lock: false });
    let core: Core;
    try {
      core = await createCore({
        ...shared,
        persistence,
        namespace: name,
        clockFrom: (store) => namespaceClock(store, root().clock, { freezeClock }),
      });
    } catch (error) {
      // Made for a request: a directory the disk refuses (full, read-only, a file in its place)
      // is that request's 503 naming it, as a refused write is; the next request tries again.
      throw error instanceof DataDirUnusable ? new WriteRefused(error.dir, `${error.dir}: ${error.reason}`) : error;
    }
    await core.start();
    return core;
  };
}

/**
 * The named namespaces kept in a data directory, to be read back at start. What a crash left
 * goes first: a namespace deleted (renamed aside) but not yet removed, and a directory made for
 * a first request that never got its answer (no whole journal line: nothing was acknowledged).
 * Entries no key can select (another name, a file) are left alone and not read (`payemu doctor`
 * lists them).
 */
export function keptNamespaces(dataDir: string): string[] {
  const entries = namespaceEntries(dataDir);
  removeLeftovers(dataDir, entries);
  return entries.kept;
}
