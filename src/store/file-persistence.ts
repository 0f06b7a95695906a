import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { encodeChangesBytes, listSegments, segmentPath } from './files.js';
import { acquireLock, DirectoryInUse } from './lock.js';
import { namespaceHolder } from './namespace-dirs.js';
import type { ImportedKeys, Persistence, StoreState } from './persistence.js';
import { fingerprint, indexKeysCurrent, keyedCollections, readIndexKeys, snapshotName, writeIndexKeys, type KeySet } from './index-keys.js';
import type { StoredRecord } from './collection.js';
import type { Marks, RawLine, SnapshotMarking } from './raw-records.js';
import { readState, writeSnapshot } from './snapshot-file.js';
import { DataDirUnusable, diskReason, refusal, WriteRefused } from './write-refused.js';

export interface FilePersistenceOptions {
  /** Journal bytes after which the segment is rotated and compacted in the background. */
  compactAfterBytes?: number;
  onCompaction?: (result: { ok: boolean; records?: number; error?: string }) => void;
  /** Journal bytes after which a clean close writes a snapshot (default 1 MiB; see close). */
  snapshotAtCloseBytes?: number;
  /** What index keys kept beside the snapshot were made by (payemu's version): others are not used. */
  keysMadeBy?: string;
  /** Take the directory's lock (default): a named namespace's directory is inside the data directory, whose lock covers it. */
  lock?: boolean;
}

/**
 * Snapshot plus append-only journal (see files.ts). A write appends one line with a
 * synchronous write(2): the cost does not grow with the store, and when `append` returns the
 * bytes are in the kernel, so a `kill -9` right after loses nothing that was answered.
 * (fsync per write is not done: surviving power loss is not a goal; see docs/storage.md.)
 */
export function filePersistence(dir: string, options: FilePersistenceOptions = {}): Persistence {
  const threshold = options.compactAfterBytes ?? 64 * 1024 * 1024;
  const atClose = options.snapshotAtCloseBytes ?? 1024 * 1024;
  let fd = -1;
  /** The snapshot read at open was written in one line (an older version): rewrite it at close. */
  let oldLayout = false;
  /** The snapshot read at open: whether there was one, and the tests it marked records by. */
  let snapshotRead: { marks: Marks | undefined } | undefined;
  /** The snapshot whose records were handed over unparsed (index-keys.ts: snapshotName): the index keys kept are its. */
  let snapshotRecords: string | undefined;
  const madeBy = options.keysMadeBy ?? '';
  const stored = (set: KeySet, print: string) =>
    snapshotRecords === undefined ? undefined : readIndexKeys(dir, snapshotRecords, set.name, print, set.columns.length);
  let segment = 0;
  let bytes = 0;
  let compactor: ChildProcess | undefined;
  /** The compaction stopped for an import of everything (`stopCompaction`): its end is no failure to report. */
  let stopped: ChildProcess | undefined;
  let releaseLock = () => {};

  /** Bytes in the open segment: a refused write is cut back to it (see `append`). */
  let segmentLength = 0;
  /** Where the last line written holds each record it wrote whole (Written.spans), reused. */
  const spans: number[] = [];
  /** A refused write left bytes that could not be cut off yet: no write until they are. */
  let torn = false;
  /** A rotation could not create the next segment: the next write tries again first. */
  let rotationDue = false;

  const openSegment = (n: number) => {
    segment = n;
    fd = fs.openSync(segmentPath(dir, n), 'a');
    segmentLength = fs.fstatSync(fd).size;
  };

  /** Closes the open segment, `fsync`ed, for the next one (see `rotateAndCompact`); answers the closed one's number. */
  const rotate = (): number => {
    const next = fs.openSync(segmentPath(dir, segment + 1), 'a');
    try {
      fs.fsyncSync(fd);
    } catch (error) {
      fs.closeSync(next);
      throw error;
    }
    fs.closeSync(fd);
    fd = next;
    segment += 1;
    segmentLength = 0;
    bytes = 0;
    rotationDue = false;
    return segment - 1;
  };

  /**
   * The next segment is opened before the current one is closed: should opening fail (a
   * read-only or full directory, no file descriptor left), the current one stays open and
   * `fd` never names a closed descriptor (which the next socket accepted would be given, and
   * journal bytes sent to it).
   */
  const rotateAndCompact = () => {
    if (compactor) return;
    const upTo = rotate();
    const compacted = (result: { ok: boolean; records?: number; error?: string }) => {
      const child = compactor;
      compactor = undefined;
      const stopping = child !== undefined && child === stopped;
      if (stopping) stopped = undefined;
      // A compaction knows no tests: its snapshot marks no record (see `unmarked`).
      if (result.ok) snapshotRead = { marks: undefined };
      // One stopped for an import (`stopCompaction`) failed on purpose: nothing to report.
      if (result.ok || !stopping) options.onCompaction?.(result);
    };
    try {
      compactor = startCompactor(dir, upTo, compacted);
    } catch (error) {
      // The rotation is done; only the compaction is missed.
      compacted({ ok: false, error: `compaction could not start: ${(error as Error).message}` });
    }
  };

  /** Before a write: what a refused one left is cut off, a removed directory is refused, a rotation owed is made. */
  const ready = () => {
    if (torn) {
      fs.ftruncateSync(fd, segmentLength);
      torn = false;
    }
    // The segment's last link gone: the data directory was removed (or the file deleted). A
    // write would go to a file nobody can read again. One fstat(2): about 2 µs, next to the
    // write(2)'s 3 and a request's hundreds (measured on the 2-core test machine).
    if (fs.fstatSync(fd).nlink === 0) throw new WriteRefused(dir, 'the data directory was removed');
    if (rotationDue) rotateAndCompact();
  };

  /** A write refused part way: its bytes are cut off, so the next line starts where this one did. */
  const undo = () => {
    try {
      fs.ftruncateSync(fd, segmentLength);
    } catch {
      torn = true;
    }
  };

  /**
   * At a clean close, the records in memory are exactly what the files hold: written as the
   * snapshot (covering every segment, which are then deleted), they let the next start read
   * one file a record per line instead of replaying the journal's every version of every
   * record. Done only when there is enough journal to be worth it, or to move a snapshot of an
   * older version to the layout read line by line. A crash in the middle leaves the old
   * snapshot with its segments, or the new one (the segments it covers are then ignored).
   */
  const snapshotAtClose = (state: StoreState) => {
    const segments = listSegments(dir);
    let journal = 0;
    for (const n of segments) journal += fs.statSync(segmentPath(dir, n)).size;
    if (journal < atClose && !oldLayout && !unmarked(snapshotRead, state.marking.marks) && keysCurrent(state)) return;
    const covers = segments.at(-1) ?? segment;
    const keyed = keyedCollections(state.collections, state.keySets, madeBy, stored);
    const { crc } = writeSnapshot(dir, covers, keyed.collections, state.marking);
    for (const n of segments) fs.rmSync(segmentPath(dir, n), { force: true });
    writeIndexKeys(dir, snapshotName(crc, covers), keyed.keys());
  };

  /**
   * A snapshot imported whole, written as the snapshot (what a compaction does with the
   * journal): the open segment is closed and a new one opened, then the snapshot covering every
   * segment up to the closed one is written and renamed into place, and those segments are
   * deleted. A crash before the rename leaves the old snapshot and segments (the new segment is
   * empty); after it, the new snapshot, which the segments it covers no longer add to.
   */
  const replaceWithSnapshot = (collections: Iterable<[string, Iterable<StoredRecord | RawLine>]>, marking: SnapshotMarking, keys?: ImportedKeys) => {
    const covers = rotate();
    const { crc } = writeSnapshot(dir, covers, collections, marking);
    for (const n of listSegments(dir)) if (n <= covers) fs.rmSync(segmentPath(dir, n), { force: true });
    oldLayout = false;
    snapshotRead = { marks: marking.marks };
    snapshotRecords = snapshotName(crc, covers);
    if (!keys) return;
    try {
      writeIndexKeys(
        dir,
        snapshotRecords,
        keys.map(([set, columns]) => [set.name, fingerprint(set, madeBy), columns]),
      );
    } catch {
      // The snapshot is in place, and the import done: without its keys file (a full disk), the
      // records are parsed for their keys when needed, and the stop writes them.
    }
  };

  /** Whether the index keys kept are those of the snapshot read (or there is none to key): else a close writes both again. */
  const keysCurrent = (state: StoreState) => {
    if (snapshotRecords === undefined) return true;
    const prints: Record<string, string> = {};
    for (const sets of state.keySets.values()) for (const set of sets) if (set.columns.length > 0) prints[set.name] = fingerprint(set, madeBy);
    return indexKeysCurrent(dir, snapshotRecords, prints);
  };

  return {
    async load(apply, raw) {
      // A directory that cannot be created, locked or written stops the start, naming it and why.
      const usable = <T>(step: () => T): T => {
        try {
          return step();
        } catch (error) {
          throw unusable(dir, error);
        }
      };
      const made = usable(() => makeDir(dir));
      if (options.lock !== false) {
        // A named namespace's directory, used by the payemu holding its data directory.
        const holder = namespaceHolder(dir);
        if (holder) throw new DirectoryInUse(dir, holder, holder.pid === process.pid);
      }
      releaseLock = options.lock === false ? () => {} : usable(() => acquireLock(dir));
      try {
        if (made) {
          // Made just now, so it holds nothing to read: a new namespace's first request pays
          // for no reading of an empty directory.
          usable(() => openSegment(1));
        } else {
          const state = await readState(dir, apply, { repairTail: true, ...(raw ? { raw } : {}) });
          usable(() => openSegment(state.segments.at(-1) ?? state.covers + 1));
          bytes = state.journalBytes;
          oldLayout = state.snapshotLayout === 'whole';
          snapshotRead = state.snapshotLayout === 'none' ? undefined : { marks: state.snapshotMarks };
          snapshotRecords = state.snapshotCrc === undefined ? undefined : snapshotName(state.snapshotCrc, state.covers);
        }
      } catch (error) {
        // A store that cannot be read is not open: the directory is free again.
        try {
          releaseLock();
        } catch {
          // A lock on a directory that refuses writes could not have been taken.
        }
        releaseLock = () => {};
        throw unusable(dir, error);
      }
      try {
        if (bytes > threshold) rotateAndCompact();
      } catch {
        rotationDue = true; // as after a write (see `append`)
      }
    },
    append(changes, replaced) {
      const line = encodeChangesBytes(changes, replaced, spans);
      const length = line.length;
      try {
        ready();
      } catch (error) {
        throw refusal(dir, error);
      }
      try {
        // One write(2) of the line; a short write (rare) continues where it stopped.
        let written = fs.writeSync(fd, line, 0, length);
        while (written < length) written += fs.writeSync(fd, line, written, length - written);
      } catch (error) {
        undo();
        throw refusal(dir, error);
      }
      segmentLength += length;
      bytes += length;
      if (bytes > threshold) {
        try {
          rotateAndCompact();
        } catch {
          // This write is in the current segment, which stays open: it is acknowledged. The next
          // write tries the rotation again first, and is refused if it still fails.
          rotationDue = true;
        }
      }
      return { bytes: line, spans };
    },
    canReplace: () => compactor === undefined && !torn && !rotationDue && fd >= 0,
    stopCompaction() {
      const running = compactor;
      if (running === undefined || torn || rotationDue || fd < 0) return undefined;
      // Stopped at any point, a compaction leaves a readable store (see compact-main.ts); the
      // import's snapshot then covers every segment, and the segments it left are deleted.
      stopped = running;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()).once('error', () => resolve()));
      running.kill('SIGKILL');
      return exited;
    },
    replace(collections, marking, keys) {
      try {
        ready();
        replaceWithSnapshot(collections, marking, keys);
      } catch (error) {
        throw refusal(dir, error);
      }
    },
    storedKeys(set) {
      return stored(set, fingerprint(set, madeBy));
    },
    async close(state?: StoreState) {
      const wasOpen = fd >= 0;
      // A directory removed while open: another payemu may hold a new one at the same path,
      // which a snapshot written now would land in.
      let removed = false;
      if (wasOpen) {
        try {
          removed = fs.fstatSync(fd).nlink === 0;
          fs.fsyncSync(fd);
        } catch {
          // A flush the disk refuses at close: every line is already in the kernel, as after
          // each write; the close goes on (the lock must be released).
        }
        // Forgotten once closed: a closed descriptor's number is given to the next file or socket.
        fs.closeSync(fd);
        fd = -1;
      }
      // A compaction still running would race a new emulator on this directory for the
      // snapshot's temporary file: let it finish first.
      const running = compactor;
      if (running) await new Promise((resolve) => running.once('exit', resolve).once('error', resolve));
      try {
        if (wasOpen && state && !removed) snapshotAtClose(state);
      } catch {
        // Only a shortcut for the next start: the journal still holds everything (a directory
        // removed under a stopping server, a full disk), so the close goes on without it.
      } finally {
        releaseLock();
      }
    },
  };
}

/**
 * mkdir -p; true when `dir` itself was made now. A recursive mkdir refused (a read-only file
 * system) says ENOENT: the plain one says why.
 */
function makeDir(dir: string): boolean {
  try {
    return fs.mkdirSync(dir, { recursive: true }) !== undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') fs.mkdirSync(dir);
    throw error;
  }
}

/** A file system error at start as a DataDirUnusable; any other error as it is. */
function unusable(dir: string, error: unknown): unknown {
  const reason = diskReason(error);
  if (reason === undefined) return error;
  return new DataDirUnusable(dir, (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : reason);
}

/**
 * Whether a snapshot lacks marks of some of the tests the store watches now (one written by a
 * compaction, or an older version): its next start would parse every record of their
 * collections, so a close rewrites it with them.
 */
function unmarked(snapshot: { marks: Marks | undefined } | undefined, watched: Marks): boolean {
  if (!snapshot) return false;
  return Object.entries(watched).some(([name, tests]) => !tests.every((test) => snapshot.marks?.[name]?.includes(test)));
}

function startCompactor(dir: string, upTo: number, done: (result: { ok: boolean; records?: number; error?: string }) => void): ChildProcess {
  // Run from source under the test loader, from dist/ when built. The path goes through
  // ../store/ so that it also holds from the CLI's bundle in dist/bin/.
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const script = fileURLToPath(new URL(`../store/compact-main${extension}`, import.meta.url));
  // From dist/ the child needs none of the server's node flags (--inspect=PORT would clash,
  // --input-type breaks a file entry); from source it needs the TypeScript loader it inherits.
  const execArgv = extension === '.ts' ? process.execArgv : [];
  // Its parent's pid: the compactor stops if it finds another (see compact-main.ts).
  const child = fork(script, [dir, String(upTo), String(process.pid)], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], execArgv });
  let result: { ok: boolean; records?: number; error?: string } | undefined;
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let ended = false;
  const end = (outcome: { ok: boolean; records?: number; error?: string }) => {
    if (ended) return;
    ended = true;
    done(outcome);
  };
  child.on('message', (message) => (result = message as typeof result));
  child.on('exit', (code) => end(result ?? { ok: code === 0, error: stderr.trim() || `compaction exited with code ${code}` }));
  // A child that could not be started (no file descriptor or process left) may never exit: the
  // segments stay as they are, and a later rotation compacts them.
  child.on('error', (error) => end({ ok: false, error: `compaction could not start: ${error.message}` }));
  return child;
}
