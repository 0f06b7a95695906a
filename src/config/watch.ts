import fs from 'node:fs';
import path from 'node:path';
import type { Bus } from '../bus/bus.js';
import { ConfigError, loadConfig } from './load.js';
import type { PayemuConfig } from './types.js';

/** What identifies one version of the config file: taken before it is read. */
export type ConfigVersion = string | undefined;

export function configVersion(file: string): ConfigVersion {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat ? `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}` : undefined;
}

/**
 * Watches the user's config file. A valid edit replaces the config in force; an invalid one is
 * reported on the bus and the last valid config stays (as Prism keeps its last valid spec).
 * `loaded`: the version of the file that was loaded (configVersion, taken before reading it).
 * The watch may start after the server answers (loading chokidar and its first scan would hold
 * up start-up): an edit made before it is ready is seen when it is, as the file then differs
 * from the version loaded.
 */
export async function watchConfig(file: string, bus: Bus, apply: (config: PayemuConfig) => void, loaded?: ConfigVersion): Promise<() => Promise<void>> {
  // chokidar is needed only while running with a config file; import it then.
  const { watch } = await import('chokidar');
  const watcher = watch(file, { ignoreInitial: true, awaitWriteFinish: { stabilityThreshold: 50, pollInterval: 10 } });
  const reload = () => reloadConfig(file, bus, apply);
  watcher.on('change', reload).on('add', reload);
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  if (loaded !== undefined && configVersion(file) !== loaded) reload();
  return () => watcher.close();
}

/**
 * watchConfig started on the next turn, after the caller's start-up is done (payemu prints its
 * readiness line first); the function returned stops it, or stops it from starting.
 */
export function watchConfigSoon(
  file: string,
  bus: Bus,
  apply: (config: PayemuConfig) => void,
  loaded: ConfigVersion,
  soon: (fn: () => void) => void,
): () => Promise<void> {
  let closed = false;
  let begun = false;
  let stop: Promise<(() => Promise<void>) | undefined> = Promise.resolve(undefined);
  soon(() => {
    if (closed) return;
    begun = true;
    stop = watchConfig(file, bus, apply, loaded).catch((error: unknown) => {
      bus.emit('config.rejected', { path: file, error: `cannot watch ${file}: ${String(error)}` });
      return undefined;
    });
  });
  return async () => {
    closed = true;
    if (begun) await (await stop)?.();
  };
}

/**
 * Waits for a config file that does not exist yet (`payemu.config.json` in the working
 * directory of a `payemu start` that found none) and, once it is created, loads it as an edit
 * would be (applied, or rejected with the defaults kept) and watches it like any config file.
 * The folder is watched with fs.watch (one inotify watch, nothing scanned: the folder may be a
 * large project); chokidar, which cannot watch a path that does not exist, takes over then.
 */
export async function watchConfigCreation(file: string, bus: Bus, apply: (config: PayemuConfig) => void): Promise<() => Promise<void>> {
  let stopFile: (() => Promise<void>) | undefined;
  let closed = false;
  let taking: Promise<void> | undefined;
  let folder: fs.FSWatcher | undefined;
  const created = () =>
    (taking ??= (async () => {
      folder?.close();
      // The file's watch is ready before the file is read: a write from then on is seen.
      const stop = await watchConfig(file, bus, apply);
      if (closed) return void (await stop());
      stopFile = stop;
      // An empty file is one being written: its content comes as a change.
      if (fs.statSync(file, { throwIfNoEntry: false })?.size) reloadConfig(file, bus, apply);
    })().catch((error: unknown) => bus.emit('config.rejected', { path: file, error: `cannot watch ${file}: ${String(error)}` })));
  try {
    folder = fs.watch(path.dirname(file), (_event, name) => {
      if (name === path.basename(file) && fs.existsSync(file)) void created();
    });
    folder.on('error', () => folder?.close());
  } catch {
    return async () => {}; // a folder that cannot be watched: a config created later needs a restart
  }
  if (fs.existsSync(file)) void created(); // created between the check at start and the watch
  return async () => {
    closed = true;
    folder?.close();
    await taking;
    await stopFile?.();
  };
}

function reloadConfig(file: string, bus: Bus, apply: (config: PayemuConfig) => void): void {
  try {
    apply(loadConfig(file));
    bus.emit('config.reloaded', { path: file });
  } catch (error) {
    const message = error instanceof ConfigError ? error.message : String(error);
    bus.emit('config.rejected', { path: file, error: message });
  }
}
