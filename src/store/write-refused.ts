/**
 * The file system refused a write of the store (full disk, read-only directory, too many open
 * files, the data directory removed...). Nothing of the write was applied, in memory or on
 * disk: the HTTP layer answers it as a 503 naming `reason`, and the next write tries again.
 */
export class WriteRefused extends Error {
  constructor(
    readonly dir: string,
    readonly reason: string,
  ) {
    super(`payemu cannot write its data directory: ${reason}`);
  }
}

/** Readable causes of the errors a file system gives for a write it refuses. */
const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  EIO: 'input/output error',
  ENOENT: 'the data directory was removed',
  ENOTDIR: 'a part of its path is not a directory',
  // A directory to be made where a file is (a named namespace's, in DATA/namespaces/).
  EEXIST: 'a file is where its directory belongs',
};

/** The readable cause of a file system error a write can meet; undefined for any other error (a bug, not the disk). */
export function diskReason(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === undefined ? undefined : REASONS[code];
}

/** `error` as a WriteRefused when the disk refused; any other error as it is. */
export function refusal(dir: string, error: unknown): unknown {
  const reason = diskReason(error);
  return reason === undefined ? error : new WriteRefused(dir, reason);
}

/** A data directory that cannot be used at start: names the directory and the cause. */
export class DataDirUnusable extends Error {
  constructor(
    readonly dir: string,
    readonly reason: string,
  ) {
    super(`cannot use data directory ${dir}: ${reason}`);
  }
}
