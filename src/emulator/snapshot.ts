import fs from 'node:fs';
import path from 'node:path';
import type { App } from '../app.js';
import { COLLECTIONS } from '../catalogue.js';
import { ConfigError } from '../config/load.js';
import type { Mode } from '../config/types.js';
import { type ExportedSnapshot, exportSnapshot, importSnapshot, type ImportReport, type SnapshotDocument } from '../control/snapshot.js';
import { snapshotText } from '../control/snapshot-text.js';

/** Where each snapshot goes: the scope it names (everything, or one Source and mode). */
export function importAs(app: App, document: SnapshotDocument): ImportReport {
  const named = (document as { scope?: unknown } | null)?.scope;
  if (named === 'all' || named === null || typeof named !== 'object') return importSnapshot(app, COLLECTIONS, document, 'all');
  const { source: slug, mode } = named as { source?: unknown; mode?: unknown };
  const source = app.config().sources.find((s) => s.slug === slug);
  if (!source) throw new TypeError(`the snapshot is of the Source ${JSON.stringify(slug)}, which the config does not have`);
  return importSnapshot(app, COLLECTIONS, document, { source, mode: mode as Mode });
}

/** `import`: a snapshot file or document to start from. */
export function importAtStart(app: App, value: string | SnapshotDocument): void {
  importAs(app, typeof value === 'string' ? readSnapshotFile(value) : value);
}

/** `exportOnExit`: a snapshot of everything written to FILE. */
export function writeExitSnapshot(app: App, file: string): void {
  writeSnapshotFile(file, exportSnapshot(app, COLLECTIONS, 'all', true));
}

/** A snapshot file as written by `payemu export`: JSON, else an error saying what the file is not. */
function readSnapshotFile(file: string): SnapshotDocument {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`--import: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return JSON.parse(text) as SnapshotDocument;
  } catch (error) {
    throw new ConfigError(`--import: ${file} is not JSON: ${(error as Error).message}`);
  }
}

/**
 * Written to a temporary file a piece at a time (never the whole text at once), then renamed
 * over FILE: a crash never leaves half a snapshot.
 */
export function writeSnapshotFile(file: string, snapshot: ExportedSnapshot): void {
  const target = path.resolve(file);
  const temporary = `${target}.${process.pid}.tmp`;
  const fd = fs.openSync(temporary, 'w');
  try {
    for (const piece of snapshotText(snapshot)) {
      const bytes = Buffer.from(piece);
      for (let written = 0; written < bytes.length; ) written += fs.writeSync(fd, bytes, written);
    }
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, target);
}
