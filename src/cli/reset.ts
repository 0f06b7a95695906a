import fs from 'node:fs';
import path from 'node:path';
import { looksLikeDataDir } from '../store/files.js';
import { acquireLock, lockHolder } from '../store/lock.js';
import { type ConnectOptions, connect, namespaceOf } from './client.js';
import { CliError, EXIT } from './errors.js';
import { output, type Output } from './output.js';

export interface ResetOptions extends ConnectOptions {
  all?: boolean;
  data?: string;
  json?: boolean;
}

/**
 * `payemu reset [--all]` empties the emulator at --url (the key's Source and mode, or all, of
 * the key's namespace); with nothing listening there it fails and deletes nothing. `payemu reset
 * --data DIR` acts on DIR only: the payemu that holds DIR is reset through the URL in its lock,
 * and a DIR that no payemu holds is deleted (with a namespace: only that namespace's
 * directory in it). --url plays no part then: it could name another instance.
 */
export async function reset(options: ResetOptions): Promise<void> {
  const out = output(options);
  const namespace = namespaceOf(options); // a bad PAYEMU_NAMESPACE is refused before anything is touched
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
  let release: () => void;
  try {
    release = acquireLock(dir); // refuses if a payemu started on it since
  } catch (lockError) {
    throw new CliError((lockError as Error).message, EXIT.refused);
  }
  if (namespace === undefined) {
    fs.rmSync(dir, { recursive: true, force: true }); // the lock goes with the directory
    return out.result({ deleted: dir }, () => `deleted ${dir}`);
  }
  // A named namespace keeps its state in DIR/namespaces/NAME (docs/storage.md): that alone goes.
  const target = path.join(dir, 'namespaces', namespace);
  const exists = fs.existsSync(target);
  try {
    if (exists) fs.rmSync(target, { recursive: true, force: true });
  } finally {
    release();
  }
  out.result({ deleted: exists ? target : null }, () => (exists ? `deleted ${target}` : `${dir} has no namespace ${namespace}: nothing to reset`));
}

async function resetAt(url: string, options: ResetOptions, out: Output): Promise<void> {
  const namespace = namespaceOf(options);
  const result = await connect({ url, key: options.key, namespace: options.namespace }).reset({ all: options.all === true });
  const what = result.scope === 'all' ? 'everything' : `${result.scope.source}/${result.scope.mode}`;
  out.result(
    { ...result, url, ...(namespace === undefined ? {} : { namespace }) },
    () => `reset ${what}${namespace === undefined ? '' : ` of namespace ${namespace}`}: ${result.removed} records removed (${url})`,
  );
}
