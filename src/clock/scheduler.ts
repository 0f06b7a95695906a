import type { Bus } from '../bus/bus.js';
import type { Change, Collection, StoredRecord } from '../store/collection.js';
import type { Store, Transaction } from '../store/store.js';
import { stopwatch, type Clock } from './clock.js';
import { formatTimestamp } from './format.js';
import { MinHeap } from './heap.js';

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

interface Job<C> {
  /** When it runs: `due`, or the record's `since` when that is later. */
  at: number;
  due: number;
  seq: number;
  kind: JobKind<StoredRecord, C>;
  id: string;
}

export interface RunReport {
  ran: Record<string, number>;
  /** The first 100 things that ran. */
  items: { kind: string; id: string; at: string }[];
}

/** Called inside each batch's transaction, before its work: an advance moves and stores the clock there. */
type BatchHook = (tx: Transaction, at: number) => void;

/** A long run of due work gives the event loop a turn this often, so requests are answered. */
const YIELD_EVERY_MS = 20;

/**
 * Runs due work in time order, each job at its own virtual timestamp: during a clock advance
 * everything up to the target, and otherwise on a one-second real-time tick.
 *
 * Work runs in batches, one per instant (a thousand schedules due at 00:00 commit as one
 * transaction, one journal line). Runs never overlap: an advance, the tick and the run that
 * follows a write take turns, and a long run yields to the event loop between batches.
 */
export class Scheduler<C extends SchedulerContext = SchedulerContext> {
  private readonly heap = new MinHeap<Job<C>>();
  private readonly byCollection = new Map<string, JobKind<StoredRecord, C>[]>();
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private app: C | undefined;
  /** The run in progress (or the last one): the next run starts after it. */
  private turn: Promise<unknown> = Promise.resolve();
  private busy = false;

  constructor(
    private readonly store: Store,
    kinds: readonly JobKind<never, C>[],
  ) {
    for (const kind of kinds as unknown as JobKind<StoredRecord, C>[]) {
      const list = this.byCollection.get(kind.collection.name) ?? [];
      list.push(kind);
      this.byCollection.set(kind.collection.name, list);
    }
    store.onCommit((changes) => this.observe(changes));
  }

  /** Schedules what the loaded records have pending; called once after the store opens. */
  rebuild(): void {
    this.heap.clear();
    for (const kinds of this.byCollection.values()) {
      for (const kind of kinds) for (const record of this.store.all(kind.collection)) this.schedule(kind, record);
    }
  }

  /** Starts the real-time tick; `now` is the virtual clock. */
  start(app: C, intervalMs = 1000): void {
    this.app = app;
    this.timer = setInterval(() => {
      if (!this.busy) void this.runDue(app.clock.now());
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Runs, in time order, every job due at or before `until` (read when this run's turn comes). */
  runDue(until: number | (() => number)): Promise<RunReport> {
    return this.inTurn(() => this.runNow(typeof until === 'function' ? until() : until, undefined));
  }

  /**
   * Moves the clock forward to `target(now)` (now as of this advance's turn), running what falls
   * due on the way. The clock moves with each batch, and `save` writes it inside the batch's
   * transaction, so it commits with that batch's work.
   */
  advance(target: (now: number) => number, save: (tx: Transaction) => void): Promise<RunReport & { now: number }> {
    return this.inTurn(async () => {
      if (!this.app) throw new Error('the scheduler has not started: no clock to advance');
      const clock = this.app.clock;
      const to = target(clock.now());
      const report = await this.runNow(to, (tx, at) => {
        clock.moveTo(at);
        save(tx);
      });
      clock.moveTo(to);
      this.store.transaction(save);
      // Where this advance left the clock: a run that takes the next turn may move it on
      // before the caller resumes.
      return { ...report, now: clock.now() };
    });
  }

  /** Runs `work` once the runs before it are done: runs never overlap. */
  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.turn.then(work);
    this.turn = run.catch(() => undefined);
    return run;
  }

  private async runNow(until: number, beforeBatch: BatchHook | undefined): Promise<RunReport> {
    const report: RunReport = { ran: {}, items: [] };
    const app = this.app;
    if (!app) return report;
    this.busy = true;
    try {
      let slice = stopwatch();
      for (let next = this.heap.peek(); next && next.at <= until; next = this.heap.peek()) {
        this.runBatch(app, next.at, beforeBatch, report);
        if (slice() >= YIELD_EVERY_MS) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          slice = stopwatch();
        }
      }
    } finally {
      this.busy = false;
    }
    return report;
  }

  /** Everything due at one instant, as one transaction; a job that fails leaves the others' work in place. */
  private runBatch(app: C, at: number, beforeBatch: BatchHook | undefined, report: RunReport): void {
    this.store.transaction((batch) => {
      beforeBatch?.(batch, at);
      for (let job = this.heap.peek(); job && job.at === at; job = this.heap.peek()) {
        this.heap.pop();
        const kind = job.kind;
        const record = batch.get(kind.collection, job.id);
        const due = record ? kind.dueAt(record) : undefined;
        // A stale entry: the record changed since (its own new entry is in the heap) or is done.
        if (due === undefined || due > job.due) continue;
        const stamp = runsAt(kind, record!, due);
        if (stamp > job.at) continue;
        try {
          this.store.transaction((tx) => kind.run(tx, record!, stamp, app));
        } catch (error) {
          app.bus.emit('server.error', { method: 'JOB', path: `${kind.kind} ${job.id}`, error: (error as Error).message, stack: (error as Error).stack });
          continue;
        }
        report.ran[kind.kind] = (report.ran[kind.kind] ?? 0) + 1;
        if (report.items.length < 100) report.items.push({ kind: kind.kind, id: job.id, at: formatTimestamp(stamp) });
      }
    });
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
    const at = runsAt(kind, record, due);
    this.heap.push({ at, due, seq: this.seq++, kind, id: record.id });
    // Already due (a schedule whose first charge is today): run it right after this commit,
    // not on the next tick.
    if (this.app && at <= this.app.clock.now()) this.kick();
  }

  private kicked = false;

  private kick(): void {
    if (this.kicked) return;
    this.kicked = true;
    setImmediate(() => {
      this.kicked = false;
      const app = this.app;
      if (app && this.timer) void this.runDue(() => app.clock.now());
    });
  }
}

function runsAt<C>(kind: JobKind<StoredRecord, C>, record: StoredRecord, due: number): number {
  const since = kind.since?.(record);
  return since !== undefined && since > due ? since : due;
}
