import fs from 'node:fs';

/** The store's files are read in 1 MB reads: a journal or a snapshot can be tens of MB. */
const READ_CHUNK = 1024 * 1024;
const NEWLINE = 10;

/** How a file ends when its last line has no newline: the write of that line never finished. */
export interface Tail {
  line: number;
  offset: number;
  length: number;
  /** Its first bytes, decoded (for reports). */
  start: string;
}

/** What a scan of a whole file found: the bytes of its whole lines, and its unfinished last line. */
export interface Scanned {
  whole: number;
  tail?: Tail;
}

/**
 * One line: `bytes[start, end)` (without its newline), at `offset` in the file, numbered from
 * 1. `bytes` is the reader's buffer, reused by the next read: decode or copy what is kept.
 * false stops the scan.
 */
export type OnLine = (bytes: Buffer, start: number, end: number, offset: number, line: number) => boolean;

/**
 * Reads the open file `fd` from its start, one line at a time, without holding it whole: a
 * journal of 100,000 sessions is tens of MB, and holding it as one string (next to the records
 * built from it) would raise the process's resident memory for good. Lines are cut at newline
 * bytes (a byte no UTF-8 sequence contains), so a line is whole even when it spans two reads.
 * `afterRead` sees each read's whole lines at once, `bytes[0, whole)` at file offset `at`
 * (for a checksum of what was read). Returns undefined when `onLine` stopped the scan.
 */
export function scanLines(
  fd: number,
  onLine: OnLine,
  options: { chunk?: number; afterRead?: (bytes: Buffer, whole: number, at: number) => void } = {},
): Scanned | undefined {
  let buffer = Buffer.allocUnsafe(options.chunk ?? READ_CHUNK);
  let filled = 0; // bytes in `buffer`
  let consumed = 0; // file offset of buffer[0]
  let line = 0;
  for (;;) {
    if (filled === buffer.length) {
      // One line longer than the buffer: make room.
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger, 0, 0, filled);
      buffer = bigger;
    }
    const read = fs.readSync(fd, buffer, filled, buffer.length - filled, consumed + filled);
    filled += read;
    const view = buffer.subarray(0, filled);
    let start = 0;
    for (let end = view.indexOf(NEWLINE); end !== -1; start = end + 1, end = view.indexOf(NEWLINE, start)) {
      if (!onLine(view, start, end, consumed + start, ++line)) return undefined;
    }
    options.afterRead?.(view, start, consumed);
    if (read === 0) {
      if (start === filled) return { whole: consumed + start };
      return {
        whole: consumed + start,
        tail: { line: line + 1, offset: consumed + start, length: filled - start, start: buffer.toString('utf8', start, Math.min(filled, start + 200)) },
      };
    }
    buffer.copy(buffer, 0, start, filled);
    consumed += start;
    filled -= start;
  }
}

/**
 * Calls `onLine` with each whole line of `file` (decoded, without its newline), its number (from
 * 1) and the byte offset where it starts. Returns the bytes of whole lines, and the unfinished
 * last line if the file does not end with a newline.
 */
export function readLines(file: string, onLine: (text: string, line: number, offset: number) => void): Scanned {
  const fd = fs.openSync(file, 'r');
  try {
    const scanned = scanLines(fd, (bytes, start, end, offset, line) => {
      onLine(bytes.toString('utf8', start, end), line, offset);
      return true;
    });
    return scanned!; // never stopped
  } finally {
    fs.closeSync(fd);
  }
}
