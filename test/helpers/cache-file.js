import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Writes `text` as `file` of one of the tests' caches in node_modules/.cache/ (esbuild's output,
 * the drift guard's validators), which the suite's processes share: written whole under a name
 * of its own, then renamed, so a process reading it sees all or nothing. A cache that cannot be
 * written only costs the next process the work again: the error is dropped.
 * @param {string | URL} file
 * @param {string} text
 */
export function writeCacheFile(file, text) {
  const target = typeof file === 'string' ? file : fileURLToPath(file);
  try {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    fs.writeFileSync(temporary, text);
    fs.renameSync(temporary, target);
  } catch {
    // Not written: see above.
  }
}
