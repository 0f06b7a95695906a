import fs from 'node:fs';
import path from 'node:path';
import { type ConnectOptions, connect } from './client.js';
import { CliError, EXIT } from './errors.js';
import { output } from './output.js';

interface Options extends ConnectOptions {
  json?: boolean;
}

/**
 * `payemu export [--all] [--out FILE]`: the snapshot as JSON on stdout, or written to FILE, as
 * it arrives (never held whole: 100,000 payments are 33 MB). FILE is written to a temporary
 * file renamed over it once whole, so a failure never leaves half a snapshot there.
 */
export async function exportState(options: Options & { all?: boolean; out?: string }): Promise<void> {
  // A folder that is not there is known before asking for the snapshot (a usage error either way).
  if (options.out !== undefined) {
    const file = path.resolve(options.out);
    if (!isDirectory(path.dirname(file))) throw new CliError(`cannot write ${file}: ENOENT (no folder ${path.dirname(file)})`, EXIT.usage);
  }
  const chunks = await connect(options).exportSnapshotText({ all: options.all === true });
  if (options.out === undefined) {
    for await (const chunk of chunks) if (!process.stdout.write(chunk)) await new Promise((resolve) => process.stdout.once('drain', resolve));
    process.stdout.write('\n');
    return;
  }
  const file = path.resolve(options.out);
  const temporary = `${file}.${process.pid}.tmp`;
  const count = new RecordCount();
  const cannotWrite = (error: unknown) =>
    new CliError(`cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, EXIT.usage);
  let fd: number;
  try {
    fd = fs.openSync(temporary, 'w');
  } catch (error) {
    throw cannotWrite(error);
  }
  try {
    for await (const chunk of chunks) {
      count.read(chunk);
      for (let written = 0; written < chunk.length; ) written += fs.writeSync(fd, chunk, written);
    }
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(temporary, { force: true });
    throw error instanceof Error && 'errno' in error ? cannotWrite(error) : error;
  }
  fs.closeSync(fd);
  fs.renameSync(temporary, file);
  const scope = count.scope();
  const what = scope === 'all' ? 'everything' : `${scope.source}/${scope.mode}`;
  output(options).result({ file, scope, records: count.records, bytes: count.bytes }, () => `exported ${what}: ${count.records} records to ${file}`);
}

/**
 * What `payemu export` says of the snapshot it wrote, read from its bytes as they pass: the
 * records (the objects of the lists in `data`, three levels deep) and the scope, the document's
 * second field as payemu writes it (`{"payemu_snapshot":1,"scope":...,"clock":`).
 */
class RecordCount {
  records = 0;
  bytes = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private head = '';

  read(chunk: Uint8Array): void {
    if (this.head.length < 4096) this.head += Buffer.from(chunk.subarray(0, 4096)).toString('utf8');
    this.bytes += chunk.length;
    let { depth, inString, escaped } = this;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) inString = false;
      } else if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) {
        if (depth++ === 3 && c === 0x7b) this.records++;
      } else if (c === 0x7d || c === 0x5d) depth--;
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
  }

  scope(): 'all' | { source: string; mode: string } {
    const start = this.head.indexOf('"scope":') + '"scope":'.length;
    return JSON.parse(this.head.slice(start, this.head.indexOf(',"clock":', start)));
  }
}

/**
 * `payemu import FILE`: replaces the scope the snapshot names (everything, with the clock, for an
 * `all` snapshot). The file's bytes are sent as they are; its scope is read from its head, where
 * `payemu export` writes it, and only a file that does not start so is parsed whole here (a file
 * that is not JSON is then refused before any request).
 */
export async function importState(file: string, options: Options): Promise<void> {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, EXIT.usage);
  }
  let scope = headScope(bytes);
  if (scope === undefined) {
    try {
      scope = (JSON.parse(bytes.toString('utf8')) as { scope?: unknown } | null)?.scope;
    } catch (error) {
      throw new CliError(`${file} is not a snapshot (not JSON: ${(error as Error).message})`, EXIT.usage);
    }
  }
  const result = await connect(options).importSnapshot(bytes, { all: scope === 'all' });
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

/** The head `payemu export` writes, `{"payemu_snapshot":1,"scope":...,`, white space allowed: the scope's JSON. */
const HEAD = /^\s*\{\s*"payemu_snapshot"\s*:\s*\d+\s*,\s*"scope"\s*:\s*("all"|\{[^{}]*\})\s*,/;

/** The scope a snapshot's first bytes name, without parsing the rest; undefined when it does not start as payemu writes one. */
function headScope(bytes: Buffer): unknown {
  const head = HEAD.exec(bytes.toString('utf8', 0, 4096))?.[1];
  if (head === undefined) return undefined;
  try {
    return JSON.parse(head);
  } catch {
    return undefined;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
