import type { Test } from 'tap';

/**
 * Runs `end` when the test's body is done, before tap removes the test's directory
 * (`t.testdir()`): tap removes it ahead of the teardowns, so a payemu still writing in its data
 * directory there (a compaction) would make that removal fail, the teardowns that stop it would
 * be skipped, and the test would hang with it running. `end` may run again in a teardown: make
 * it idempotent.
 */
export function whenBodyDone(t: Test, end: () => Promise<unknown>): void {
  const onEOF = t.onEOF;
  t.onEOF = async () => {
    t.onEOF = onEOF;
    await end();
    await onEOF.call(t);
  };
}
