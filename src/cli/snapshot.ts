import fs from 'node:fs';
import path from 'node:path';
import { type ConnectOptions, connect } from './client.js';
import { CliError, EXIT } from './errors.js';
import { output } from './output.js';

interface Options extends ConnectOptions {
  json?: boolean;
}

/** `payemu export [--all] [--out FILE]`: the snapshot as JSON on stdout, or written to FILE. */
export async function exportState(options: Options & { all?: boolean; out?: string }): Promise<void> {
  // A folder that is not there is known before asking for the snapshot (a usage error either way).
  if (options.out !== undefined) {
    const file = path.resolve(options.out);
    if (!isDirectory(path.dirname(file))) throw new CliError(`cannot write ${file}: ENOENT (no folder ${path.dirname(file)})`, EXIT.usage);
  }
  const snapshot = await connect(options).exportSnapshot({ all: options.all === true });
  const text = JSON.stringify(snapshot);
  if (options.out === undefined) {
    process.stdout.write(`${text}\n`);
    return;
  }
  const file = path.resolve(options.out);
  try {
    fs.writeFileSync(file, text);
  } catch (error) {
    throw new CliError(`cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, EXIT.usage);
  }
  const records = Object.values(snapshot.data).reduce((sum, list) => sum + list.length, 0);
  const scope = snapshot.scope === 'all' ? 'everything' : `${snapshot.scope.source}/${snapshot.scope.mode}`;
  output(options).result({ file, scope: snapshot.scope, records, bytes: Buffer.byteLength(text) }, () => `exported ${scope}: ${records} records to ${file}`);
}

/** `payemu import FILE`: replaces the scope the snapshot names (everything, with the clock, for an `all` snapshot). */
export async function importState(file: string, options: Options): Promise<void> {
  let text: string;
  let scope: unknown;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, EXIT.usage);
  }
  try {
    scope = (JSON.parse(text) as { scope?: unknown } | null)?.scope;
  } catch (error) {
    throw new CliError(`${file} is not a snapshot (not JSON: ${(error as Error).message})`, EXIT.usage);
  }
  const result = await connect(options).importSnapshot(text, { all: scope === 'all' });
  const records = Object.values(result.counts).reduce((sum, n) => sum + n, 0);
  output(options).result(result, () => {
    const what = result.scope === 'all' ? 'everything' : `${result.scope.source}/${result.scope.mode}`;
    const moved = Object.entries(result.renumbered ?? {}).map(([name, ids]) => {
      const n = Object.keys(ids).length;
      const noun = name.replace(/_/g, ' ');
      return `${n} ${n === 1 ? noun.replace(/s$/, '') : noun}`;
    });
    const renumbered = moved.length > 0 ? `; ${moved.join(' and ')} renumbered, as another Source or mode uses their ids (--json: which)` : '';
    return `imported ${records} records into ${what} (${result.removed} removed first${renumbered}); clock ${result.now}`;
  });
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
