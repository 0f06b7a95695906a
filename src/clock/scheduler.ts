import type { App } from '../app.js';
import type { Change, Collection, StoredRecord } from '../store/collection.js';
import type { Store, Transaction } from '../store/store.js';
import { formatTimestamp } from './format.js';
import { MinHeap } from './heap.js';

/**
 * A kind of time-based work, derived from a collection's records: a record is due at
 * `dueAt(record)` (undefined when it has nothing pending). Jobs are not stored; they are
 * rebuilt from the records at start-up and whenever a record of the collection is written.
 */
export interface JobKind<T extends StoredRecord = StoredRecord> {
  kind: string;
  collection: Collection<T>;
  dueAt(record: T): number | undefined;
  /** Does the work in the transaction, as of virtual time `at` (the moment it fell due). */
  run(tx: Transaction, record: T, at: number, app: App): void;
}

interface Job {
  at: number;
  seq: number;
  kind: JobKind;
  id: string;
}

export interface RunReport {
  ran: Record<string, number>;
  /** The first 100 things that ran. */
  items: { kind: string; id: string; at: string }[];
}

/**
 * Runs due work in time order, each job at its own virtual timestamp: during a clock advance
 * everything up to the target, and otherwise on a one-second real-time tick.
 */
export class Scheduler {
  private readonly heap = new MinHeap<Job>();
  private readonly byCollection = new Map<string, JobKind[]>();
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private app: App | undefined;

  constructor(
    private readonly store: Store,
    kinds: readonly JobKind<never>[],
  ) {
    for (const kind of kinds as unknown as JobKind[]) {
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
  start(app: App, intervalMs = 1000): void {
    this.app = app;
    this.timer = setInterval(() => this.runDue(app.clock.now()), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Runs, in time order, every job due at or before `until`. */
  runDue(until: number): RunReport {
    const report: RunReport = { ran: {}, items: [] };
    const app = this.app;
    if (!app) return report;
    for (let next = this.heap.peek(); next && next.at <= until; next = this.heap.peek()) {
      // Everything due at one instant (a thousand schedules at 00:00) commits as one
      // transaction, one journal line; each job runs nested in it, so a job that fails
      // leaves the others' work in place.
      const at = next.at;
      this.store.transaction((batch) => {
        for (let job = this.heap.peek(); job && job.at === at; job = this.heap.peek()) {
          this.heap.pop();
          const kind = job.kind;
          const record = batch.get(kind.collection, job.id);
          const due = record ? kind.dueAt(record) : undefined;
          // A stale entry: the record changed since (its own new entry is in the heap) or is done.
          if (due === undefined || due > job.at) continue;
          try {
            this.store.transaction((tx) => kind.run(tx, record!, due, app));
          } catch (error) {
            app.bus.emit('server.error', { method: 'JOB', path: `${kind.kind} ${job.id}`, error: (error as Error).message, stack: (error as Error).stack });
            continue;
          }
          report.ran[kind.kind] = (report.ran[kind.kind] ?? 0) + 1;
          if (report.items.length < 100) report.items.push({ kind: kind.kind, id: job.id, at: formatTimestamp(due) });
        }
      });
    }
    return report;
  }

  private observe(changes: readonly Change[]): void {
    for (const change of changes) {
      if (!change.record) continue;
      const kinds = this.byCollection.get(change.collection);
      if (kinds) for (const kind of kinds) this.schedule(kind, change.record);
    }
  }

  private schedule(kind: JobKind, record: StoredRecord): void {
    const at = kind.dueAt(record);
    if (at === undefined) return;
    this.heap.push({ at, seq: this.seq++, kind, id: record.id });
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
      if (this.app && this.timer) this.runDue(this.app.clock.now());
    });
  }
}
