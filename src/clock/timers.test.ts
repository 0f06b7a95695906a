import t from 'tap';
import { Timers } from './timers.js';

/** Whether `promise` has settled by the time the event loop has turned `turns` times. */
async function settledWithin(promise: Promise<unknown>, turns = 5): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  return done;
}

t.test('idle() with nothing to do resolves', async (t) => {
  const timers = new Timers();
  t.ok(await settledWithin(timers.idle()));
});

t.test('idle() waits for tracked work', async (t) => {
  const timers = new Timers();
  let finish!: () => void;
  timers.track(new Promise<void>((resolve) => (finish = resolve)));
  const idle = timers.idle();
  t.notOk(await settledWithin(idle), 'pending while the work is in flight');
  finish();
  await idle;
  t.ok(timers.quiet());
});

t.test('idle() waits for soon callbacks, and for work they start', async (t) => {
  const timers = new Timers();
  const order: string[] = [];
  let finish!: () => void;
  timers.soon(() => {
    order.push('soon');
    timers.track(new Promise<void>((resolve) => (finish = resolve)));
    timers.soon(() => finish());
  });
  await timers.idle();
  t.same(order, ['soon']);
  t.ok(timers.quiet());
});

t.test('a cancelled soon callback does not hold idle(); background ones never do', async (t) => {
  const timers = new Timers();
  let ran = false;
  timers.soon(() => (ran = true)).cancel();
  timers.soon(() => {}, { background: true });
  t.ok(timers.quiet());
  await timers.idle();
  t.notOk(ran);
});

t.test('a due probe holds idle() until it says nothing is due', async (t) => {
  const timers = new Timers();
  let due = true;
  timers.due(() => due);
  const idle = timers.idle();
  t.notOk(await settledWithin(idle));
  timers.after(0, () => (due = false));
  await idle;
  t.pass('resolved once the timer ran the due work');
});

t.test('after, every and cancel', async (t) => {
  const timers = new Timers();
  let ticks = 0;
  let every!: { cancel(): void };
  await new Promise<void>((resolve) => {
    // ref'd: unref'd timers alone would let the test process exit.
    every = timers.every(
      1,
      () => {
        if (++ticks === 3) resolve();
      },
      { ref: true },
    );
  });
  every.cancel();
  let late = false;
  timers.after(1, () => (late = true)).cancel();
  const stopped = timers.after(60_000, () => (late = true));
  timers.cancelAll();
  stopped.cancel(); // harmless twice
  await new Promise<void>((resolve) => timers.after(5, resolve, { ref: true }));
  t.equal(ticks, 3);
  t.notOk(late);
});
