import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Test } from 'tap';

/**
 * A small tmpfs of its own (`mount -t tmpfs -o OPTIONS`), unmounted in teardown: a real file
 * system that runs out of space or inodes. undefined (and the test skipped, saying why) where
 * mounting is not allowed (not root, a container without CAP_SYS_ADMIN).
 */
export function tmpfs(t: Test, options: string): string | undefined {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    fs.rmdirSync(dir);
    t.plan(0, `needs a tmpfs mount (run as root with mount allowed): ${String((error as Error).message).split('\n')[0]}`);
    return undefined;
  }
  let mounted = true;
  const unmount = () => {
    if (!mounted) return;
    mounted = false;
    execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
    fs.rmdirSync(dir);
  };
  t.teardown(unmount);
  // Also when a teardown before this one threw, or the runner's timeout ended the process.
  process.once('exit', () => {
    try {
      unmount();
    } catch {
      // Nothing more can be done on the way out.
    }
  });
  return dir;
}

/** Fills the file system `dir` is on with a file in it until a write is refused; returns the file. */
export function fill(dir: string): string {
  const file = path.join(dir, 'filler');
  const fd = fs.openSync(file, 'a');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (let size = chunk.length; size >= 1; size = Math.floor(size / 2)) {
      for (;;) {
        try {
          fs.writeSync(fd, chunk, 0, size);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          break;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return file;
}

/** Creates empty files in `dir` until the file system has no inode left; returns them. */
export function fillInodes(dir: string): string[] {
  const files: string[] = [];
  for (let i = 0; ; i++) {
    const file = path.join(dir, `inode-${i}`);
    try {
      fs.closeSync(fs.openSync(file, 'w'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      return files;
    }
    files.push(file);
  }
}

/**
 * A raw TCP connection to `url` that sends nothing: whatever the server writes to it (store
 * bytes written to a reused file descriptor) is kept.
 */
export async function idleSocket(t: Test, url: string): Promise<{ received: () => number; close: () => void }> {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let bytes = 0;
  socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
  socket.on('error', () => {});
  t.teardown(() => void socket.destroy());
  // Closed before the emulator is: a server stopping waits for its connections.
  return { received: () => bytes, close: () => void socket.destroy() };
}

/** Every journal segment in `dir` ends with a newline and every line is JSON: no fragment of a refused write. */
export function journalWhole(dir: string): boolean {
  for (const name of fs.readdirSync(dir).filter((n) => n.startsWith('journal-'))) {
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    if (text.length === 0) continue;
    if (!text.endsWith('\n')) return false;
    for (const line of text.slice(0, -1).split('\n')) {
      try {
        JSON.parse(line);
      } catch {
        return false;
      }
    }
  }
  return true;
}
