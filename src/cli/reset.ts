import fs from 'node:fs';
import path from 'node:path';
import { acquireLock, lockHolder } from '../store/lock.js';
import { dataDirOf, dropNamespaceDir, holdsPayemuData, namespaceDir, namespaceEntries, namespaceHolder, removeDefaultFiles } from '../store/namespace-dirs.js';
import { type ConnectOptions, connect, namespaceOf } from './client.js';
import { CliError, EXIT } from './errors.js';
import { output, type Output } from './output.js';

export interface ResetOptions extends ConnectOptions {
  all?: boolean;
  data?: string;
  /** The default namespace and every named one. */
  allNamespaces?: boolean;
  json?: boolean;
}

/**
 * `payemu reset [--all]` empties the emulator at --url (the key's Source and mode, or all, of
 * the key's namespace, or with --all-namespaces of every namespace); with nothing listening there
 * it fails and deletes nothing. `payemu reset --data DIR` acts on DIR only: the payemu that holds
 * DIR is reset through the URL in its lock, and a DIR that no payemu holds is deleted: the
 * default namespace's files, keeping the named namespaces in DIR/namespaces/ (all of DIR with
 * --all-namespaces; DIR/namespaces/NAME alone with a namespace). --url plays no part then: it
 * could name another instance.
 */
export async function reset(options: ResetOptions): Promise<void> {
  const out = output(options);
  const namespace = namespaceOf(options); // a bad PAYEMU_NAMESPACE is refused before anything is touched
  if (namespace !== undefined && options.allNamespaces)
    throw new CliError(
      `--all-namespaces acts in every namespace, and ${options.namespace === undefined ? 'PAYEMU_NAMESPACE' : '--namespace'} names one: give one or the other`,
      EXIT.usage,
    );
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
  const parent = namespaceHolder(dir);
  if (parent)
    throw new CliError(
      `${dir} is namespace ${path.basename(dir)} of ${dataDirOf(dir)}, which a running payemu holds (pid ${parent.pid}): reset it through that data directory, with --data ${dataDirOf(dir)} --namespace ${path.basename(dir)}`,
      EXIT.refused,
    );
  if (!fs.existsSync(dir)) return out.result({ deleted: null }, () => `${dir} does not exist: nothing to reset`);
  if (!holdsPayemuData(dir)) throw new CliError(`${dir} does not look like a payemu data directory; not deleting it`, EXIT.usage);
  let release: () => void;
  try {
    release = acquireLock(dir); // refuses if a payemu started on it since
  } catch (lockError) {
    throw new CliError((lockError as Error).message, EXIT.refused);
  }
  const named = namespaceEntries(dir).kept;
  if (options.allNamespaces || (namespace === undefined && named.length === 0)) {
    fs.rmSync(dir, { recursive: true, force: true }); // the lock goes with the directory
    return out.result({ deleted: dir }, () => `deleted ${dir}`);
  }
  try {
    if (namespace !== undefined) {
      // A named namespace keeps its state in DIR/namespaces/NAME (docs/storage.md): that alone
      // goes, renamed aside first (cut short, the namespace is gone or whole: dropNamespaceDir).
      const gone = await dropNamespaceDir(dir, namespace);
      const target = namespaceDir(dir, namespace);
      return out.result({ deleted: gone ?? null }, () => (gone ? `deleted ${target}` : `${dir} has no namespace ${namespace}: nothing to reset`));
    }
    removeDefaultFiles(dir);
  } finally {
    release();
  }
  out.result(
    { deleted: dir, kept_namespaces: named },
    () => `deleted the default namespace's data in ${dir}; kept the named namespaces ${named.join(', ')} (--all-namespaces deletes them too)`,
  );
}

async function resetAt(url: string, options: ResetOptions, out: Output): Promise<void> {
  const resetIn = (namespace: string | undefined) => connect({ url, key: options.key, namespace }).reset({ all: options.all === true });
  type Result = Awaited<ReturnType<typeof resetIn>>;
  const line = (result: Result, namespace: string | undefined) =>
    `reset ${result.scope === 'all' ? 'everything' : `${result.scope.source}/${result.scope.mode}`}${namespace === undefined ? '' : ` of namespace ${namespace}`}: ${result.removed} records removed (${url})`;
  const namespace = namespaceOf(options);
  const result = await resetIn(namespace);
  if (!options.allNamespaces) return out.result({ ...result, url, ...(namespace === undefined ? {} : { namespace }) }, () => line(result, namespace));
  // Every named namespace alike (listing them makes none).
  const namespaces: (Result & { name: string })[] = [];
  for (const { name } of await connect({ url, key: options.key }, { namespaced: false }).namespaces()) namespaces.push({ name, ...(await resetIn(name)) });
  out.result({ ...result, url, namespaces }, () => [line(result, undefined), ...namespaces.map((named) => line(named, named.name))].join('\n'));
}
