// A child process for the lock race test: waits until the `go` file appears (all children
// start at once), tries to lock the directory, reports to its parent over IPC and keeps what
// it got until the parent disconnects.
import fs from 'node:fs';
import path from 'node:path';
import { acquireLock } from './lock.js';

const [dir] = process.argv.slice(2) as [string];
process.send!('ready');
const nap = new Int32Array(new SharedArrayBuffer(4));
while (!fs.existsSync(path.join(dir, 'go'))) Atomics.wait(nap, 0, 0, 1);
try {
  acquireLock(dir);
  process.send!('locked');
} catch (error) {
  process.send!(`refused: ${(error as Error).message}`);
}
process.on('disconnect', () => process.exit(0));
