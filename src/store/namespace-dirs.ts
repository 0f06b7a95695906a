import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isNamespaceName } from '../lib/namespace-name.js';
import { listSegments, looksLikeDataDir, segmentPath, snapshotPath } from './files.js';
import { type LockHolder, lockHolder } from './lock.js';

/**
 * Where named namespaces live in a data directory: `DATA/namespaces/NAME/`, each holding the
 * files a data directory holds (no lock: DATA's covers them). Read by the start, which reads them
 * back, by `payemu doctor`, which checks each, and by `payemu reset --data`.
 */

const DROPPED = '.deleted-';

export const namespacesDir = (dataDir: string) => path.join(dataDir, 'namespaces');
export const namespaceDir = (dataDir: string, name: string) => path.join(dataDir, 'namespaces', name);

/** What `DATA/namespaces/` holds, by what a start does with each entry. */
export interface NamespaceEntries {
  /** Namespaces with state (a journal line or a snapshot), by name, sorted: read back at start. */
  kept: string[];
  /**
   * Directories of a valid name with no whole journal line: made by a first request that never
   * got its answer (a crash between the directory and its first line). Nothing of them was
   * acknowledged: a start removes them.
   */
  unborn: string[];
  /** `.deleted-NAME-xxxx`: a namespace deleted just before a crash. A start removes them. */
  dropped: string[];
  /** Anything else (a name no key can select, a file where a directory belongs): left alone, never read. */
  strays: { entry: string; why: string }[];
}

export function namespaceEntries(dataDir: string): NamespaceEntries {
  const found: NamespaceEntries = { kept: [], unborn: [], dropped: [], strays: [] };
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(namespacesDir(dataDir), { withFileTypes: true });
  } catch {
    return found; // none yet (or `namespaces` is not a directory: then no namespace can be made)
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name.startsWith(DROPPED)) found.dropped.push(entry.name);
    else if (!isNamespaceName(entry.name)) found.strays.push({ entry: entry.name, why: 'not a namespace name (1 to 32 characters of a-z, 0-9, _ and -)' });
    else if (!entry.isDirectory()) found.strays.push({ entry: entry.name, why: 'not a directory' });
    else if (written(namespaceDir(dataDir, entry.name))) found.kept.push(entry.name);
    else found.unborn.push(entry.name);
  }
  return found;
}

/**
 * Whether a store directory holds anything acknowledged: a snapshot, or a whole journal line (a
 * line without its newline was cut short by a crash and never answered).
 */
export function written(dir: string): boolean {
  if (fs.existsSync(snapshotPath(dir))) return true;
  return listSegments(dir).some((n) => holdsNewline(segmentPath(dir, n)));
}

function holdsNewline(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    for (let at = 0; ; ) {
      const read = fs.readSync(fd, buffer, 0, buffer.length, at);
      if (read === 0) return false;
      if (buffer.subarray(0, read).includes(10)) return true;
      at += read;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Takes a namespace's directory out of the data directory: renamed first (atomic: from then on,
 * crash or not, the namespace is gone), then removed. Returns the directory's path, or
 * `undefined` when there was none. A start removes what a crash left half-removed
 * (`removeLeftovers`).
 */
export async function dropNamespaceDir(dataDir: string, name: string): Promise<string | undefined> {
  const from = namespaceDir(dataDir, name);
  const to = path.join(namespacesDir(dataDir), `${DROPPED}${name}-${randomBytes(4).toString('hex')}`);
  try {
    fs.renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  await fs.promises.rm(to, { recursive: true, force: true });
  return from;
}

/** Removes the directories of namespaces deleted, and of ones made but never written, before a crash. */
export function removeLeftovers(dataDir: string, entries: NamespaceEntries): void {
  for (const entry of [...entries.dropped, ...entries.unborn]) fs.rmSync(path.join(namespacesDir(dataDir), entry), { recursive: true, force: true });
}

/**
 * The live payemu holding the data directory that `dir` is a named namespace's directory of: it
 * alone writes there (the directory has no lock of its own), so another payemu, a reset or a
 * repair must keep out.
 */
export function namespaceHolder(dir: string): LockHolder | undefined {
  const owner = dataDirOf(dir);
  return owner === dir ? undefined : lockHolder(owner);
}

/**
 * The data directory a store directory belongs to: DATA for `DATA/namespaces/NAME` (whose lock
 * is DATA's), else the directory itself.
 */
export function dataDirOf(dir: string): string {
  const parent = path.dirname(dir);
  return path.basename(parent) === 'namespaces' && isNamespaceName(path.basename(dir)) ? path.dirname(parent) : dir;
}

/** A directory payemu has written: the default's files, or named namespaces with state (what reset and doctor check). */
export function holdsPayemuData(dir: string): boolean {
  return looksLikeDataDir(dir) || namespaceEntries(dir).kept.length > 0;
}

/**
 * Removes the default namespace's files from a data directory no payemu holds, keeping
 * `namespaces/` (and the lock, which its holder releases). The journal goes first, newest
 * segment first, then the snapshot: cut short, what is left is an earlier state of the default,
 * never a journal without the records it rewrites.
 */
export function removeDefaultFiles(dataDir: string): void {
  for (const n of listSegments(dataDir).reverse()) fs.rmSync(segmentPath(dataDir, n), { force: true });
  fs.rmSync(snapshotPath(dataDir), { force: true });
  for (const entry of fs.readdirSync(dataDir)) {
    if (entry === 'namespaces' || entry === 'payemu.lock') continue;
    fs.rmSync(path.join(dataDir, entry), { recursive: true, force: true });
  }
}
