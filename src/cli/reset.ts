import fs from 'node:fs';
import path from 'node:path';
import { looksLikeDataDir } from '../store/files.js';
import { acquireLock, lockHolder } from '../store/lock.js';
import { connect } from './client.js';
import { CliError, EXIT } from './errors.js';
import { output, type Output } from './output.js';

export interface ResetOptions {
  all?: boolean;
  data?: string;
  url?: string;
  key?: string;
  json?: boolean;
}

/**
 * `payemu reset [--all]` empties the emulator at --url (the key's Source and mode, or all); with
 * nothing listening there it fails and deletes nothing. `payemu reset --data DIR` acts on DIR
 * only: the payemu that holds DIR is reset through the URL in its lock, and a DIR that no
 * payemu holds is deleted. --url plays no part then: it could name another instance.
 */
export async function reset(options: ResetOptions): Promise<void> {
  const out = output(options);
  if (options.data === undefined) return resetAt(connect(options).url, options, out);

  const dir = path.resolve(options.data);
  const holder = lockHolder(dir);
  if (holder) {
    if (!holder.url)
      throw new CliError(
        `${dir} is held by a payemu (pid ${holder.pid}) that has not said its URL yet (still starting, or an older version): try again once it listens`,
        EXIT.refused,
      );
    return resetAt(holder.url, options, out);
  }
  if (!fs.existsSync(dir)) return out.result({ deleted: null }, () => `${dir} does not exist: nothing to reset`);
  if (!looksLikeDataDir(dir)) throw new CliError(`${dir} does not look like a payemu data directory; not deleting it`, EXIT.usage);
  try {
    acquireLock(dir); // refuses if a payemu started on it since; the lock goes with the directory
  } catch (lockError) {
    throw new CliError((lockError as Error).message, EXIT.refused);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  out.result({ deleted: dir }, () => `deleted ${dir}`);
}

async function resetAt(url: string, options: ResetOptions, out: Output): Promise<void> {
  const result = await connect({ url, key: options.key }).reset({ all: options.all === true });
  out.result(
    { ...result, url },
    () => `reset ${result.scope === 'all' ? 'everything' : `${result.scope.source}/${result.scope.mode}`}: ${result.removed} records removed (${url})`,
  );
}
