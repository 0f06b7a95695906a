import type { Clock } from '../clock/clock.js';
import { MinHeap } from '../clock/heap.js';
import type { AsyncDueWork } from '../clock/scheduler.js';
import type { TimerHandle, Timers } from '../clock/timers.js';

/** How a clock advance reports the retries it ran (in `ran` and `items`). */
export const RETRY_KIND = 'webhook.retry';

/**
 * Makes the event's next attempt; with `forAdvance`, resolves once it has ended, with the
 * virtual time it started (undefined when none was made). See `Dispatcher.attempt`.
 */
export type RunAttempt = (id: string, forAdvance?: boolean) => Promise<number | undefined>;

/**
 * The webhook attempts due later (retries; pending deliveries found at start), by event id:
 * due on the virtual clock, the wait counting from the virtual time the failed attempt ended. A
 * clock advance runs, in time order, every retry that falls due within its span (`retries`,
 * handed to the scheduler's advance), awaiting each before the clock moves past it; otherwise a
 * timer sends a retry when its time comes. A frozen clock only moves on advance, so with it a
 * retry due later waits for an advance that reaches it.
 */
export class RetrySchedule {
  /** Each scheduled attempt's real-time timer (made through `timers`). */
  private readonly retryTimers = new Map<string, TimerHandle>();
  /** id -> virtual due time. */
  private readonly due = new Map<string, number>();
  /** The same, by due time; entries no longer in `due` (ran, rescheduled, cancelled) are skipped. */
  private readonly dueOrder = new MinHeap<{ at: number; seq: number; id: string }>();
  private dueSeq = 0;
  /** A clock advance is running the due retries: timers leave them to it. */
  private advancing = false;
  private closed = false;

  /** `beforeAdvance` resolves once the attempts already out have ended (see `retries`). */
  constructor(
    private readonly clock: Clock,
    private readonly timers: Timers,
    private readonly run: RunAttempt,
    private readonly beforeAdvance: () => Promise<void>,
  ) {}

  /** The ids scheduled now. */
  ids(): string[] {
    return [...this.due.keys()];
  }

  /** The event's next attempt is due at `at`: kept for an advance, and timed. */
  schedule(id: string, at: number): void {
    if (this.closed) return;
    this.cancel(id);
    this.due.set(id, at);
    this.dueOrder.push({ at, seq: this.dueSeq++, id });
    // Entries left behind by attempts that ran on their timers: dropped now and then.
    if (this.dueOrder.size > 2 * this.due.size + 1024) {
      this.dueOrder.clear();
      for (const [id, at] of this.due) this.dueOrder.push({ at, seq: this.dueSeq++, id });
    }
    this.arm(id, at);
  }

  cancel(id: string): void {
    this.retryTimers.get(id)?.cancel();
    this.retryTimers.delete(id);
    this.due.delete(id);
  }

  /** The attempt is made again after `ms` of real time (the disk refused its bookkeeping). */
  again(id: string, ms: number): void {
    this.retryTimers.get(id)?.cancel();
    this.retryTimers.set(
      id,
      this.timers.after(ms, () => void this.run(id)),
    );
  }

  /** Whether a retry is due at or before the virtual now (its timer is about to send it). */
  dueNow(): boolean {
    const next = this.nextScheduled();
    return next !== undefined && next.at <= this.clock.now();
  }

  close(): void {
    this.closed = true;
    for (const timer of this.retryTimers.values()) timer.cancel();
    this.retryTimers.clear();
    this.due.clear();
    this.dueOrder.clear();
  }

  /**
   * A timer that sends the attempt when its time comes on the real-time path. Not during an
   * advance (which runs what falls due and re-arms the rest when it ends), and not for a later
   * time on a frozen clock, which gets there only by an advance.
   */
  private arm(id: string, at: number): void {
    this.retryTimers.get(id)?.cancel();
    this.retryTimers.delete(id);
    const now = this.clock.now();
    if (this.closed || this.advancing || (this.clock.frozen() && at > now)) return;
    const timer = this.timers.after(at - now, () => {
      this.retryTimers.delete(id);
      if (this.advancing) return; // still in `due`: the advance runs it, or re-arms it
      this.due.delete(id);
      void this.run(id);
    });
    this.retryTimers.set(id, timer);
  }

  /** The earliest entry of `dueOrder` still scheduled, stale ones dropped. */
  private nextScheduled(): { at: number; id: string } | undefined {
    for (let top = this.dueOrder.peek(); top; top = this.dueOrder.peek()) {
      if (this.due.get(top.id) === top.at) return top;
      this.dueOrder.pop();
    }
    return undefined;
  }

  /**
   * The retries as the scheduler's advance runs them (see `Scheduler.advance`): it awaits the
   * attempts already out (one that fails may be retried within the span), then runs each retry
   * at its due time, awaiting its end before the clock moves on. A retry that fails schedules the
   * next one, which runs in the same advance if it is due within the span. First attempts of the
   * events the advance raises are not awaited: they go out as the events are raised (an advance
   * of a year raises hundreds of thousands); their retries run in the advance if they have
   * failed by the time the advance gets to their due time.
   */
  readonly retries: AsyncDueWork = {
    begin: async () => {
      this.advancing = true;
      await this.beforeAdvance();
    },
    nextDue: () => this.nextScheduled()?.at,
    runDue: async (at) => {
      const ids: string[] = [];
      for (let top = this.nextScheduled(); top && top.at <= at; top = this.nextScheduled()) {
        this.dueOrder.pop();
        this.cancel(top.id);
        ids.push(top.id);
      }
      // Started together, in due order, each in a slot of its Source; all awaited.
      const started = await Promise.all(ids.map((id) => this.run(id, true)));
      const ran: { kind: string; id: string; at: number }[] = [];
      started.forEach((startedAt, i) => {
        if (startedAt !== undefined) ran.push({ kind: RETRY_KIND, id: ids[i]!, at: startedAt });
      });
      return ran;
    },
    end: () => {
      this.advancing = false;
      for (const [id, at] of this.due) this.arm(id, at);
    },
  };
}
