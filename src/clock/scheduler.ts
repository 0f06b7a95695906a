import type { Bus } from '../bus/bus.js';
import type { Change, Collection, StoredRecord } from '../store/collection.js';
import type { Store, Transaction } from '../store/store.js';
import { stopwatch, type Clock } from './clock.js';
import { MinHeap } from './heap.js';
import { count, merge, type RunReport } from './run-report.js';
import type { TimerHandle, Timers } from './timers.js';

/**
 * A kind of time-based work, derived from a collection's records: a record is due at
 * `dueAt(record)` (undefined when it has nothing pending). Jobs are not stored; they are
 * rebuilt from the records at start-up and whenever a record of the collection is written.
 */
export interface JobKind<T extends StoredRecord = StoredRecord, C = unknown> {
  kind: string;
  collection: Collection<T>;
  dueAt(record: T): number | undefined;
  /**
   * When the change that made the record due happened (its last update). Work is stamped with
   * the moment it fell due, but never earlier than that: a schedule created at 10:00 whose
   * first charge is due at 00:00 that day is charged at 10:00, not before it existed.
   */
  since?(record: T): number;
  /**
   * Does the work in the transaction, as of virtual time `at` (the moment it fell due). `ctx` is
   * what the composition root gave the scheduler at start (the app): time knows no resource.
   */
  run(tx: Transaction, record: T, at: number, ctx: C): void;
}

/** What the scheduler itself needs of its context: the clock, and the bus to report a failed job on. */
export interface SchedulerContext {
  clock: Clock;
  bus: Bus;
}

export type { RunReport } from './run-report.js';

interface Job<C> {
  /** When it runs: `due`, or the record's `since` when that is later. */
  at: number;
  due: number;
  seq: number;
  kind: JobKind<StoredRecord, C>;
  id: string;
}

/**
 * Due work that is not a job: it is held outside the scheduler's records and ends
 * asynchronously (webhook retries are HTTP requests). An advance runs it in time order with the
 * jobs, and awaits each run before it moves the clock past it; outside advances it runs on its
 * own timers.
 */
export interface AsyncDueWork {
  /** An advance begins: resolves once the work already under way has ended. */
  begin(): Promise<void>;
  /** When the earliest pending work falls due (virtual epoch ms), if any. */
  nextDue(): number | undefined;
  /**
   * Runs all the pending work due at or before `at`, where the clock now stands, and resolves
   * once it has ended, with what ran (`at`: when each started). Work it runs may leave new work
   * due later (a retry after a failure).
   */
  runDue(at: number): Promise<{ kind: string; id: string; at: number }[]>;
  /** The advance has ended (or failed): the work runs on its own again. */
  end(): void;
}

/** Called inside each batch's transaction, before its work: an advance moves and stores the clock there. */
type BatchHook = (tx: Transaction, at: number) => void;

/** A long run of due work gives the event loop a turn this often, so requests are answered. */
const YIELD_EVERY_MS = 20;
/**
 * At most this many jobs of one instant commit together. A thousand schedules due at the same
 * midnight would otherwise be one transaction of about 230 ms on a 2-core machine, and a request
 * (`GET /_payemu/health`, promised within 200 ms during an advance) would wait for all of it.
 * Each piece stores the clock at that instant with its work: after a crash, what a stored piece
 * did not run is still due at that instant (due work is derived from the records), so the
 * restart runs it, once.
 */
const JOBS_PER_BATCH = 200;

/**
 * Runs due work in time order, each job at its own virtual timestamp: during a clock advance
 * everything up to the target, and otherwise on a one-second real-time tick.
 *
 * Work runs in batches, one per instant, of at most JOBS_PER_BATCH jobs (a thousand schedules
 * due at 00:00 commit as five transactions, five journal lines). Runs never overlap: an advance, the tick and the run that
 * follows a write take turns, and a long run yields to the event loop between batches.
 */
export class Scheduler<C extends SchedulerContext = SchedulerContext> {
  private readonly heap = new MinHeap<Job<C>>();
  private readonly byCollection = new Map<string, JobKind<StoredRecord, C>[]>();
  private seq = 0;
  /**
   * Entries a batch took off the heap, for `schedule` to fill in again. A recurring job's run
   * schedules its next run: a year of daily billing would otherwise leave 365,000 entries, each
   * kept a virtual day, long enough to reach V8's old generation (36 MB of it to collect).
   */
  private readonly spare: Job<C>[] = [];
  private timer: TimerHandle | undefined;
  private app: C | undefined;
  /** The run in progress (or the last one): the next run starts after it. */
  private turn: Promise<unknown> = Promise.resolve();
  private busy = false;
  /** Takes the scheduler's probe out of `Timers.idle()` (see `dispose`). */
  private readonly undue: () => void;

  constructor(
    private readonly store: Store,
    kinds: readonly JobKind<StoredRecord, C>[],
    private readonly timers: Timers,
    private readonly jobsPerBatch = JOBS_PER_BATCH,
  ) {
    for (const kind of kinds) {
      const list = this.byCollection.get(kind.collection.name) ?? [];
      list.push(kind);
      this.byCollection.set(kind.collection.name, list);
      // A clean stop marks the records with due work and keeps their due times, so that a
      // start finds them (rebuild) without parsing the records the snapshot holds.
      store.watch(kind.collection, kind.kind, (record) => kind.dueAt(record) !== undefined, {
        of: (record) => {
          const due = kind.dueAt(record);
          return due === undefined ? undefined : [due, runsAt(kind, record, due)];
        },
        source: `${String(kind.dueAt)} ${String(kind.since)}`,
      });
    }
    store.onCommit((changes) => this.observe(changes));
    this.undue = timers.due(() => this.dueNow());
  }

  /**
   * For `Timers.idle()`: a run in progress, or a job due at or before the virtual now (which a
   * kick runs at once rather than the next tick). Stale heap entries count until a run drops them.
   */
  private dueNow(): boolean {
    if (this.busy) return true;
    const next = this.heap.peek();
    if (!this.app || !this.timer || !next || next.at > this.app.clock.now()) return false;
    this.kick();
    return true;
  }

  /**
   * Schedules what the loaded records have pending; called once after the store opens, from
   * the due times the store has of them (see `Store.due`): `dueAt` and `since` depend on the
   * record alone, so what they were when the snapshot was written they are now.
   */
  rebuild(): void {
    this.heap.clear();
    for (const kinds of this.byCollection.values()) {
      for (const kind of kinds) this.store.due(kind.collection, kind.kind, (id, due, at) => this.push(kind, id, due, at));
    }
  }

  /** Starts the real-time tick; `now` is the virtual clock. */
  start(app: C, intervalMs = 1000): void {
    this.app = app;
    this.timer = this.timers.every(intervalMs, () => {
      if (!this.busy) this.runInBackground(app);
    });
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** Stopped for good: the shared timers forget it, so a dropped core leaves nothing behind. */
  dispose(): void {
    this.stop();
    this.undue();
  }

  /** Runs, in time order, every job due at or before `until` (read when this run's turn comes). */
  runDue(until: number | (() => number)): Promise<RunReport> {
    return this.inTurn(() => this.runNow(typeof until === 'function' ? until() : until, undefined));
  }

  /**
   * Moves the clock forward to `target(now)` (now as of this advance's turn), running what falls
   * due on the way. The clock moves with each batch, and `save` writes it inside the batch's
   * transaction, so it commits with that batch's work.
   *
   * `work` (webhook retries) runs in the same time order: first the work already under way is
   * awaited, then at each moment work falls due, the jobs due by then run, the clock moves there
   * (and is stored), and the work due is run and awaited before the clock moves on. What it
   * leaves due within the span runs in this advance too.
   *
   * `last` writes inside the advance's last transaction (the one that stores the clock at the
   * target), knowing the whole report: an `Idempotency-Key`'s result commits with it.
   */
  advance(
    target: (now: number) => number,
    save: (tx: Transaction) => void,
    work?: AsyncDueWork,
    last?: (tx: Transaction, report: RunReport & { now: number }) => void,
  ): Promise<RunReport & { now: number }> {
    return this.inTurn(async () => {
      if (!this.app) throw new Error('the scheduler has not started: no clock to advance');
      const clock = this.app.clock;
      const to = target(clock.now());
      const moveAndSave: BatchHook = (tx, at) => {
        clock.moveTo(at);
        save(tx);
      };
      const report: RunReport = { ran: {}, items: [] };
      try {
        await work?.begin();
        for (;;) {
          const next = work?.nextDue();
          const due = next !== undefined && next <= to ? next : undefined;
          // The jobs due up to the work's due time (or to the end) run first.
          merge(report, await this.runNow(due ?? to, moveAndSave));
          if (due === undefined) {
            // Work those jobs' effects left due within the span still runs in this advance.
            const late = work?.nextDue();
            if (late === undefined || late > to) break;
            continue;
          }
          if (clock.now() < due) moveStored(clock, due, () => this.store.transaction(save));
          for (const item of await work!.runDue(clock.now())) count(report, item.kind, item.id, item.at);
        }
        moveStored(clock, to, () =>
          this.store.transaction((tx) => {
            save(tx);
            last?.(tx, { ...report, now: clock.now() });
          }),
        );
      } finally {
        work?.end();
      }
      // Where this advance left the clock: a run that takes the next turn may move it on
      // before the caller resumes.
      return { ...report, now: clock.now() };
    });
  }

  /** Runs `work` once the runs before it are done: runs never overlap. */
  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.turn.then(async () => {
      this.busy = true;
      try {
        return await work();
      } finally {
        this.busy = false;
      }
    });
    this.turn = run.catch(() => undefined);
    // In flight from the moment it is queued: `idle()` waits for it (an advance included).
    this.timers.track(this.turn);
    return run;
  }

  private async runNow(until: number, beforeBatch: BatchHook | undefined): Promise<RunReport> {
    const report: RunReport = { ran: {}, items: [] };
    const app = this.app;
    if (!app) return report;
    let slice = stopwatch();
    for (let next = this.heap.peek(); next && next.at <= until; next = this.heap.peek()) {
      this.runBatch(app, next.at, beforeBatch, report);
      if (slice() >= YIELD_EVERY_MS) {
        await this.timers.yield();
        slice = stopwatch();
      }
    }
    return report;
  }

  /**
   * What is due at one instant, as one transaction, up to `jobsPerBatch` jobs run (the rest is
   * the next batch, at the same instant; stale entries are dropped on the way and do not count);
   * a job that fails leaves the others' work in place.
   */
  private runBatch(app: C, at: number, beforeBatch: BatchHook | undefined, report: RunReport): void {
    const taken: Job<C>[] = [];
    const clockBefore = app.clock.state();
    try {
      this.store.transaction((batch) => {
        beforeBatch?.(batch, at);
        let ran = 0;
        for (let job = this.heap.peek(); job && job.at === at && ran < this.jobsPerBatch; job = this.heap.peek()) {
          this.heap.pop();
          taken.push(job);
          if (this.runJob(app, batch, job, report)) ran++;
        }
      });
    } catch (error) {
      // The batch did not commit (the disk refused its write): nothing of it happened, so its
      // jobs are still due and the clock stands where the last stored batch left it. They run
      // again on the next tick or advance, once the disk takes writes.
      app.clock.restore(clockBefore);
      for (const job of taken) this.heap.push(job);
      throw error;
    }
    for (const job of taken) if (this.spare.length < this.jobsPerBatch) this.spare.push(job);
  }

  /** Runs one entry taken off the heap, unless it is stale; whether it counts as run (a failure does). */
  private runJob(app: C, batch: Transaction, job: Job<C>, report: RunReport): boolean {
    const kind = job.kind;
    const record = batch.get(kind.collection, job.id);
    const due = record ? kind.dueAt(record) : undefined;
    // A stale entry: the record changed since (its own new entry is in the heap) or is done.
    if (due === undefined || due > job.due) return false;
    const stamp = runsAt(kind, record!, due);
    if (stamp > job.at) return false;
    try {
      this.store.transaction((tx) => kind.run(tx, record!, stamp, app));
    } catch (error) {
      app.bus.emit('server.error', { method: 'JOB', path: `${kind.kind} ${job.id}`, error: (error as Error).message, stack: (error as Error).stack });
      return true;
    }
    count(report, kind.kind, job.id, stamp);
    return true;
  }

  private observe(changes: readonly Change[]): void {
    for (const change of changes) {
      if (!change.record) continue;
      const kinds = this.byCollection.get(change.collection);
      if (kinds) for (const kind of kinds) this.schedule(kind, change.record);
    }
  }

  private schedule(kind: JobKind<StoredRecord, C>, record: StoredRecord): void {
    const due = kind.dueAt(record);
    if (due === undefined) return;
    this.push(kind, record.id, due, runsAt(kind, record, due));
  }

  private push(kind: JobKind<StoredRecord, C>, id: string, due: number, at: number): void {
    const job = this.spare.pop();
    if (job) {
      job.at = at;
      job.due = due;
      job.seq = this.seq++;
      job.kind = kind;
      job.id = id;
      this.heap.push(job);
    } else this.heap.push({ at, due, seq: this.seq++, kind, id });
    // Already due (a schedule whose first charge is today): run it right after this commit,
    // not on the next tick.
    if (this.app && at <= this.app.clock.now()) this.kick();
  }

  private kicked = false;

  private kick(): void {
    if (this.kicked) return;
    this.kicked = true;
    this.timers.soon(() => {
      this.kicked = false;
      const app = this.app;
      if (app && this.timer) this.runInBackground(app);
    });
  }

  /**
   * A run nobody awaits (the real-time tick, a job already due): a failure (the disk refusing
   * a batch) is reported on the bus, never an unhandled rejection, which would end the process.
   * The batch's jobs stay due and the next tick tries them again.
   */
  private runInBackground(app: C): void {
    this.runDue(() => app.clock.now()).catch((error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      app.bus.emit('server.error', { method: 'JOB', path: 'due work', error: failure.message, stack: failure.stack });
    });
  }
}

/** Moves the clock to `to` and stores it; if the store refuses the write, the clock stays where it was stored. */
function moveStored(clock: Clock, to: number, store: () => void): void {
  const before = clock.state();
  clock.moveTo(to);
  try {
    store();
  } catch (error) {
    clock.restore(before);
    throw error;
  }
}

function runsAt<C>(kind: JobKind<StoredRecord, C>, record: StoredRecord, due: number): number {
  const since = kind.since?.(record);
  return since !== undefined && since > due ? since : due;
}
