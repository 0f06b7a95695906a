import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Change } from './collection.js';
import { encodeChangesBytes, readState, segmentPath } from './files.js';
import { acquireLock } from './lock.js';
import type { Persistence } from './persistence.js';

export interface FilePersistenceOptions {
  /** Journal bytes after which the segment is rotated and compacted in the background. */
  compactAfterBytes?: number;
  onCompaction?: (result: { ok: boolean; records?: number; error?: string }) => void;
}

/**
 * Snapshot plus append-only journal (see files.ts). A write appends one line with a
 * synchronous write(2): the cost does not grow with the store, and when `append` returns the
 * bytes are in the kernel, so a `kill -9` right after loses nothing that was answered.
 * (fsync per write is not done: surviving power loss is not a goal; see docs/storage.md.)
 */
export function filePersistence(dir: string, options: FilePersistenceOptions = {}): Persistence {
  const threshold = options.compactAfterBytes ?? 64 * 1024 * 1024;
  let fd = -1;
  let segment = 0;
  let bytes = 0;
  let compactor: ChildProcess | undefined;
  let releaseLock = () => {};

  const openSegment = (n: number) => {
    segment = n;
    fd = fs.openSync(segmentPath(dir, n), 'a');
  };

  const rotateAndCompact = () => {
    if (compactor) return;
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    const upTo = segment;
    openSegment(segment + 1);
    bytes = 0;
    compactor = startCompactor(dir, upTo, (result) => {
      compactor = undefined;
      options.onCompaction?.(result);
    });
  };

  return {
    async load(apply) {
      fs.mkdirSync(dir, { recursive: true });
      releaseLock = acquireLock(dir);
      try {
        const state = await readState(dir, apply, { repairTail: true });
        openSegment(state.segments.at(-1) ?? state.covers + 1);
        bytes = state.journalBytes;
      } catch (error) {
        // A store that cannot be read is not open: the directory is free again.
        releaseLock();
        releaseLock = () => {};
        throw error;
      }
      if (bytes > threshold) rotateAndCompact();
    },
    append(changes: readonly Change[]) {
      const line = encodeChangesBytes(changes);
      const length = line.length;
      // One write(2) of the line; a short write (rare) continues where it stopped.
      let written = fs.writeSync(fd, line, 0, length);
      while (written < length) written += fs.writeSync(fd, line, written, length - written);
      bytes += length;
      if (bytes > threshold) rotateAndCompact();
    },
    async close() {
      if (fd >= 0) {
        fs.fsyncSync(fd);
        fs.closeSync(fd);
        fd = -1;
      }
      // A compaction still running would race a new emulator on this directory for the
      // snapshot's temporary file: let it finish first.
      const running = compactor;
      if (running) await new Promise((resolve) => running.once('exit', resolve));
      releaseLock();
    },
  };
}

function startCompactor(dir: string, upTo: number, done: (result: { ok: boolean; records?: number; error?: string }) => void): ChildProcess {
  // Run from source under the test loader, from dist/ when built. The path goes through
  // ../store/ so that it also holds from the CLI's bundle in dist/bin/.
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const script = fileURLToPath(new URL(`../store/compact-main${extension}`, import.meta.url));
  // From dist/ the child needs none of the server's node flags (--inspect=PORT would clash,
  // --input-type breaks a file entry); from source it needs the TypeScript loader it inherits.
  const execArgv = extension === '.ts' ? process.execArgv : [];
  const child = fork(script, [dir, String(upTo)], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], execArgv });
  let result: { ok: boolean; records?: number; error?: string } | undefined;
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.on('message', (message) => (result = message as typeof result));
  child.on('exit', (code) => done(result ?? { ok: code === 0, error: stderr.trim() || `compaction exited with code ${code}` }));
  return child;
}
