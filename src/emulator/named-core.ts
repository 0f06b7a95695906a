import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { App } from '../app.js';
import { isNamespaceName } from '../lib/namespace-name.js';
import { type FilePersistenceOptions, filePersistence } from '../store/file-persistence.js';
import { memoryPersistence } from '../store/persistence.js';
import { namespaceClock } from './clock.js';
import { type Core, type CoreOptions, createCore } from './core.js';

/** What every core of one payemu shares: all of CoreOptions but what is each core's own. */
export type SharedCoreOptions = Omit<CoreOptions, 'persistence' | 'clockFrom' | 'namespace' | 'abandoned'>;

/** Where a named namespace keeps its state: a data directory of its own inside payemu's. */
export function namespaceDir(dataDir: string, name: string): string {
  return path.join(dataDir, 'namespaces', name);
}

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
    const persistence = dataDir === undefined ? memoryPersistence() : filePersistence(namespaceDir(dataDir, name), { ...persistenceOptions, lock: false });
    const core = await createCore({
      ...shared,
      persistence,
      namespace: name,
      clockFrom: (store) => namespaceClock(store, root().clock, { freezeClock }),
    });
    await core.start();
    return core;
  };
}

/** The named namespaces kept in a data directory (a directory per valid name), to be read back at start. */
export function keptNamespaces(dataDir: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(dataDir, 'namespaces'), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.filter((entry) => entry.isDirectory() && isNamespaceName(entry.name)).map((entry) => entry.name);
}

/**
 * Removes a dropped namespace's directory: renamed first (atomic: after a crash from here on the
 * namespace is gone), then deleted; a start removes what a crash left (`removeDropped`).
 */
export async function removeNamespaceDir(dataDir: string, name: string): Promise<void> {
  const from = namespaceDir(dataDir, name);
  const to = path.join(dataDir, 'namespaces', `.deleted-${name}-${randomBytes(4).toString('hex')}`);
  try {
    fs.renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  await fs.promises.rm(to, { recursive: true, force: true });
}

/** Directories of namespaces dropped just before a crash. */
export function removeDropped(dataDir: string): void {
  const dir = path.join(dataDir, 'namespaces');
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (name.startsWith('.deleted-')) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
}
