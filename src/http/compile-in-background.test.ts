import t from 'tap';
import { Timers } from '../clock/timers.js';
import { compileInBackground } from './server.js';

// A validator compiled in the background that throws (ajv cannot be loaded while the process has
// no file descriptor left) is left to compile on first use: the others still compile, and
// nothing is thrown from the timer, which would stop payemu.
t.test('a background compile that throws is skipped, the rest still compile', async (t) => {
  t.setTimeout(10_000);
  const timers = new Timers();
  const done: string[] = [];
  let failures = 0;
  const pending = [
    () => done.push('first'),
    () => {
      failures++;
      throw new Error("Cannot find module 'ajv-formats'");
    },
    () => done.push('third'),
  ];
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  process.on('uncaughtException', onUncaught);
  t.teardown(() => void process.off('uncaughtException', onUncaught));
  compileInBackground(pending, timers);
  await new Promise<void>((resolve) => {
    const look = () => (done.length === 2 ? resolve() : timers.after(20, look, { ref: true }));
    look();
  });
  t.same(done, ['first', 'third']);
  t.equal(failures, 1);
  t.same(uncaught, [], 'nothing escaped the timer');
  t.same(pending, [], 'every validator was tried');
});
