import fs from 'node:fs';
import path from 'node:path';
import { acquireLock } from '../store/lock.js';
import { call, CliError, connection, EXIT } from './client.js';
import { output } from './output.js';

export interface ResetOptions {
  all?: boolean;
  data?: string;
  url?: string;
  key?: string;
  json?: boolean;
}

/**
 * `payemu reset [--all]` empties a running emulator (the key's Source and mode, or all);
 * with nothing running, `payemu reset --data DIR` deletes that data directory.
 */
export async function reset(options: ResetOptions): Promise<void> {
  const out = output(options);
  try {
    const result = await call(connection(options), 'POST', '/_payemu/reset', options.all ? { all: true } : {});
    out.result(result, () => `reset ${result.scope === 'all' ? 'everything' : `${result.scope.source}/${result.scope.mode}`}: ${result.removed} records removed`);
  } catch (error) {
    if (!(error instanceof CliError) || error.exitCode !== EXIT.unreachable || !options.data) throw error;
    const dir = path.resolve(options.data);
    if (!fs.existsSync(dir)) return out.result({ deleted: null }, () => `${dir} does not exist: nothing to reset`);
    if (!fs.existsSync(path.join(dir, 'snapshot.json')) && !fs.readdirSync(dir).some((f) => f.startsWith('journal-'))) {
      throw new CliError(`${dir} does not look like a payemu data directory; not deleting it`, EXIT.usage);
    }
    try {
      acquireLock(dir); // refuses while a payemu uses the directory; the lock goes with it
    } catch (lockError) {
      throw new CliError((lockError as Error).message, EXIT.refused);
    }
    fs.rmSync(dir, { recursive: true, force: true });
    out.result({ deleted: dir }, () => `deleted ${dir}`);
  }
}
