/**
 * The one place payemu waits in real time: every `setTimeout`, `setInterval` and `setImmediate`
 * of the engine goes through a `Timers` (one per emulator, passed in, never a singleton), which
 * also knows the work in flight, so that `idle()` can say when payemu has nothing left to do.
 *
 * "Nothing left to do" means: no tracked promise is pending (a scheduler run or advance, a
 * webhook attempt), no `soon` callback is waiting for its turn, and every registered probe says
 * nothing is due now (the scheduler: a job due at or before the virtual now; the dispatcher: a
 * first attempt queued, or a retry due at or before now). Work due later (a retry an hour ahead,
 * a retry on a frozen clock that only an advance reaches) does not keep it from resolving.
 */

/** A timer or a queued callback; `cancel()` is harmless once it has run. */
export interface TimerHandle {
  cancel(): void;
}

export interface TimerOptions {
  /** Keep the process alive while the timer is pending. Default false: payemu's timers never do. */
  ref?: boolean;
}

export interface SoonOptions {
  /**
   * Background work (compiling validators) that `idle()` does not wait for. Default false: a
   * pending `soon` callback is work about to happen.
   */
  background?: boolean;
}

/** Says whether work is due now; registered by the scheduler and the dispatcher. */
export type DueProbe = () => boolean;

/** How often `idle()` looks again when only a probe says work is due and no timer has fired. */
const IDLE_BEAT_MS = 100;

export class Timers {
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly probes = new Set<DueProbe>();
  private readonly handles = new Set<TimerHandle>();
  private pendingSoon = 0;
  /** Resolved (and replaced) whenever something that `idle()` looks at may have changed. */
  private wake: (() => void) | undefined;
  private changed: Promise<void> | undefined;

  /** Calls `fn` once after `ms` real milliseconds. */
  after(ms: number, fn: () => void, options: TimerOptions = {}): TimerHandle {
    const timer = setTimeout(
      () => {
        this.handles.delete(handle);
        this.run(fn);
      },
      Math.max(0, ms),
    );
    if (!options.ref) timer.unref();
    const handle = this.hold(() => clearTimeout(timer));
    return handle;
  }

  /** Calls `fn` every `ms` real milliseconds until cancelled. */
  every(ms: number, fn: () => void, options: TimerOptions = {}): TimerHandle {
    const timer = setInterval(() => this.run(fn), ms);
    if (!options.ref) timer.unref();
    return this.hold(() => clearInterval(timer));
  }

  /** A handle on a pending timer, known to `cancelAll` until cancelled (or, for `after`, fired). */
  private hold(clear: () => void): TimerHandle {
    const handle: TimerHandle = {
      cancel: () => {
        clear();
        this.handles.delete(handle);
      },
    };
    this.handles.add(handle);
    return handle;
  }

  /** Calls `fn` on the next turn of the event loop (after I/O): a yield, or work right after a commit. */
  soon(fn: () => void, options: SoonOptions = {}): TimerHandle {
    const counted = !options.background;
    let pending = true;
    const settle = () => {
      if (!pending) return;
      pending = false;
      this.handles.delete(handle);
      if (counted) this.pendingSoon--;
    };
    const immediate = setImmediate(() => {
      settle();
      this.run(fn);
    });
    if (options.background) immediate.unref();
    if (counted) this.pendingSoon++;
    const handle: TimerHandle = {
      cancel: () => {
        clearImmediate(immediate);
        settle();
        this.notify();
      },
    };
    this.handles.add(handle);
    return handle;
  }

  /**
   * Calls `fn` at the end of this turn of the event loop, once the I/O the turn handled is done
   * (its check phase). Not a wait: nothing is due later, so `idle()` does not count it and
   * `cancelAll` leaves it. The HTTP server writes the turn's answers with it (http/answer-writes.ts),
   * and a stop must not lose an answer. No handle either: it runs once per turn under load, so
   * it costs no more than `setImmediate` itself.
   */
  endOfTurn(fn: () => void): void {
    setImmediate(fn);
  }

  /** A promise that resolves on the next turn of the event loop (a long run's yield). */
  yield(): Promise<void> {
    return new Promise((resolve) => this.soon(resolve));
  }

  /** Counts `promise` as work in flight until it settles; returns it. */
  track<T>(promise: Promise<T>): Promise<T> {
    this.inFlight.add(promise);
    const done = () => {
      this.inFlight.delete(promise);
      this.notify();
    };
    promise.then(done, done);
    return promise;
  }

  /** Registers a probe of due work; returns the unregister. */
  due(probe: DueProbe): () => void {
    this.probes.add(probe);
    return () => {
      this.probes.delete(probe);
      this.notify();
    };
  }

  /** How many due probes and pending timers are held: a core dropped must leave these as they were. */
  held(): { probes: number; timers: number } {
    return { probes: this.probes.size, timers: this.handles.size };
  }

  /** Nothing in flight, no `soon` pending, nothing due now. */
  quiet(): boolean {
    if (this.inFlight.size > 0 || this.pendingSoon > 0) return false;
    for (const probe of this.probes) if (probe()) return false;
    return true;
  }

  /**
   * Resolves when no work is due or in flight. It looks again whenever tracked work settles or a
   * timer fires, each time after a turn of the event loop (so the microtasks that work queues,
   * such as a first webhook attempt, have run). Work due later does not hold it.
   */
  async idle(): Promise<void> {
    for (;;) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.quiet()) return;
      const changed = (this.changed ??= new Promise<void>((resolve) => (this.wake = resolve)));
      if (this.inFlight.size > 0 || this.pendingSoon > 0) {
        await changed;
        continue;
      }
      // Only a probe holds it: the timer that runs the due work fires soon (the scheduler's
      // tick, a retry's timer) and wakes it; a beat bounds the wait should none.
      let beat: NodeJS.Timeout | undefined;
      await Promise.race([changed, new Promise<void>((resolve) => (beat = setTimeout(resolve, IDLE_BEAT_MS)))]);
      clearTimeout(beat);
    }
  }

  /** Cancels every pending timer (the emulator stops). Tracked work is left to end on its own. */
  cancelAll(): void {
    for (const handle of [...this.handles]) handle.cancel();
  }

  private run(fn: () => void): void {
    try {
      fn();
    } finally {
      this.notify();
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    this.changed = undefined;
    wake?.();
  }
}
