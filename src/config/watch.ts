import type { Bus } from '../bus/bus.js';
import { ConfigError, loadConfig } from './load.js';
import type { PayemuConfig } from './types.js';

/**
 * Watches the user's config file. A valid edit replaces the config in force; an invalid one is
 * reported on the bus and the last valid config stays (as Prism keeps its last valid spec).
 */
export async function watchConfig(
  file: string,
  bus: Bus,
  apply: (config: PayemuConfig) => void,
): Promise<() => Promise<void>> {
  // chokidar is needed only while running with a config file; import it then.
  const { watch } = await import('chokidar');
  const watcher = watch(file, { ignoreInitial: true, awaitWriteFinish: { stabilityThreshold: 50, pollInterval: 10 } });
  const reload = () => {
    try {
      apply(loadConfig(file));
      bus.emit('config.reloaded', { path: file });
    } catch (error) {
      const message = error instanceof ConfigError ? error.message : String(error);
      bus.emit('config.rejected', { path: file, error: message });
    }
  };
  watcher.on('change', reload).on('add', reload);
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return () => watcher.close();
}
