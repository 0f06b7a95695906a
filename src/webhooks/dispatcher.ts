import type { Bus } from '../bus/bus.js';
import type { RaisedEvent } from '../bus/events.js';
import { stopwatch, type Clock } from '../clock/clock.js';
import type { AsyncDueWork } from '../clock/scheduler.js';
import type { Timers } from '../clock/timers.js';
import type { PayemuConfig } from '../config/types.js';
import type { Store } from '../store/store.js';
import { WriteRefused } from '../store/write-refused.js';
import { inProgress, interrupted, settle, settleCopy, startedAttempt, withStarted } from './attempts.js';
import type { ChaosSettingsOf } from './chaos.js';
import { ChaosEffects, chaosSigning } from './chaos-apply.js';
import { WebhookDestinations } from './destination.js';
import { Lanes, type Lane } from './lanes.js';
import { Events, attemptsOf, isSettled, type Attempt, type EventRecord } from './records.js';
import { RetrySchedule } from './retry-schedule.js';
import { sendWebhook } from './send.js';

export interface DispatcherOptions {
  /** For every Source whose config has no `webhook_url`. */
  webhookUrl?: string;
  /** The namespace whose events this dispatcher delivers, sent as `Payemu-Namespace`; unset in the default namespace (no header). */
  namespace?: string;
  /** Waits before retries 1, 2 and 3 (virtual time). */
  backoffMs: number[];
  timeoutMs: number;
  strictUrls: boolean;
  /** Each Source and mode's webhook chaos (docs/chaos.md); none without. */
  chaos?: ChaosSettingsOf;
}

/** Real milliseconds before an attempt whose bookkeeping the disk refused is made again. */
const REFUSED_RETRY_MS = 2_000;

/** What an attempt needs once it may go: the event as it stands, its Source and where it goes. */
interface Target {
  event: EventRecord;
  source: PayemuConfig['sources'][number];
  url: string;
}

/**
 * Delivers each event to its Source's endpoint: signed POSTs with `got` (its own retries off;
 * these are ours), a non-2xx answer, a timeout or a refused connection retried after each wait
 * of the backoff. Every attempt is stored on the event when it starts, before its request goes
 * out, and again when it ends; one cut off by a stop or a crash is marked interrupted at the
 * next start and retried like any failure. Deliveries never block each other: first attempts
 * start in event order and run concurrently.
 *
 * Retries are due on the virtual clock, and run by a clock advance or a timer: see
 * `RetrySchedule` (retry-schedule.ts), whose `retries` the scheduler's advance is handed.
 *
 * Webhook chaos (a first attempt delayed, duplicated, or signed wrong) is applied by
 * `ChaosEffects` (chaos-apply.ts), which the first attempts go through.
 */
export class Dispatcher {
  /** Attempts due later (retries; pending deliveries found at start). */
  private readonly later: RetrySchedule;
  private readonly inFlight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private readonly lanes = new Lanes((id) => void this.attempt(id));
  private closed = false;
  private unsubscribe: (() => void)[] = [];
  /** Takes the dispatcher's probe out of `Timers.idle()` at close: a dropped core leaves nothing behind. */
  private readonly undue: () => void;
  /** Webhook chaos: the plans drawn for first attempts not made yet, and those waiting out a delay. */
  private readonly chaos: ChaosEffects;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly bus: Bus,
    private readonly config: () => PayemuConfig,
    private readonly options: DispatcherOptions,
    private readonly timers: Timers,
  ) {
    // A settled event is held as the journal wrote it (Store.holdWhen): most are never read again
    // before the log's cap lets them go. One settled with no endpoint is told to the listeners of
    // attempts (the terminal UI, the log) from the record its transaction wrote (`unannounced`).
    store.holdWhen(Events, (event) => isSettled(event.delivery_status));
    this.chaos = new ChaosEffects(store, clock, bus, timers, options);
    this.later = new RetrySchedule(
      clock,
      timers,
      (id, forAdvance) => this.attempt(id, forAdvance),
      async () => {
        // First attempts queued but not started yet start now, so they count as out.
        if (this.firstAttempts.length > 0) this.drainFirstAttempts();
        await Promise.allSettled([...this.inFlight.values()].map((f) => f.done));
      },
    );
    this.undue = timers.due(() => this.dueNow());
    // Marked at a clean stop: a start finds the deliveries to go on with without parsing every event.
    store.watch(Events, 'webhook.delivery', (event) => event.next_attempt_at !== null || inProgress(event) !== undefined);
    // An event raised for a Source without an endpoint is settled in its own transaction (one
    // journal line), not by a second write when its delivery would start.
    store.beforeCommit((tx) => {
      if (tx.events.length === 0) return;
      // Each Source's endpoint looked up once per transaction: a batch of due work raises thousands.
      const sources = this.config().sources;
      // Whether anyone is told of an event with no endpoint (see `unannounced`), asked once too.
      const told = this.bus.has('webhook.attempt');
      let slug: string | undefined;
      let hasEndpoint = false;
      for (const raised of tx.events) {
        if (raised.source !== slug) {
          slug = raised.source;
          const source = sources.find((s) => s.slug === slug);
          hasEndpoint = source !== undefined && this.endpointFor(source) !== null;
        }
        if (hasEndpoint) continue;
        const event = tx.get(Events, raised.id);
        if (!event || attemptsOf(event).length > 0) continue;
        // Raised in this transaction (its id is new), so the record is this transaction's own
        // and seen by nobody yet: settled in place. A copy would leave the first version as
        // garbage, 730,000 of them in a year of daily billing.
        event.delivery_status = 'no_endpoint';
        event.next_attempt_at = null;
        if (told) this.unannounced.set(raised, event);
      }
    });
  }

  /**
   * Starts delivering; events left pending by a previous run are picked up, and attempts it
   * left in progress (it stopped or crashed while they were out) are marked interrupted first.
   */
  start(): void {
    // Read once: an event the store left in the snapshot is parsed for each reading, and not kept.
    const events = [...this.store.watched(Events)];
    const settled = this.closeInterrupted(events);
    this.unsubscribe.push(
      // After every other listener has heard of the event (a stream shows the event before its
      // first attempt); microtasks keep first attempts in event order.
      this.bus.on('domain', (event) => this.enqueue(event)),
      // After the commit's events are on the bus (this listener comes after the core's).
      this.store.onCommit((_changes, events) => this.tellNoEndpoint(events)),
    );
    for (const read of events) {
      const event = settled.get(read.id) ?? read;
      if (event.next_attempt_at !== null) this.schedule(event);
    }
  }

  /**
   * Reads what is pending from the store again after records were replaced wholesale (a
   * snapshot imported): deliveries of events gone are dropped, pending and retrying ones are
   * timed from their `next_attempt_at`, and attempts recorded as in progress that this run has
   * not got out are interrupted (as after a restart).
   */
  reload(): void {
    if (this.closed) return;
    for (const id of this.later.ids()) if (!this.store.get(Events, id)) this.later.cancel(id);
    // Those that may have a delivery to go on with (see `start`): an import kept unparsed is not parsed whole.
    const events = [...this.store.watched(Events)];
    const settled = this.closeInterrupted(events);
    for (const read of events) {
      const event = settled.get(read.id) ?? read;
      if (event.next_attempt_at !== null && !this.inFlight.has(event.id)) this.schedule(event);
    }
  }

  /**
   * An attempt still in progress in the store was cut off (the receiver may or may not have
   * got it): logged as `interrupted`, tried again at once, using up no retry of its cycle
   * (`settle`). One transaction for all. Returns the events it wrote, by id, as written.
   */
  private closeInterrupted(events: Iterable<EventRecord>): Map<string, EventRecord> {
    const cut: EventRecord[] = [];
    const written = new Map<string, EventRecord>();
    for (const event of events) if (inProgress(event) && !this.inFlight.has(event.id)) cut.push(event);
    if (cut.length === 0) return written;
    this.store.transaction((tx) => {
      for (const event of cut) {
        const attempt = interrupted(inProgress(event)!);
        // A duplicate's second copy is not the delivery: the delivery's status stands.
        const next = attempt.chaos === 'duplicate' ? settleCopy(event, attempt) : settle(event, attempt, this.options.backoffMs, this.clock.now());
        written.set(event.id, tx.put(Events, next));
      }
    });
    return written;
  }

  /**
   * First attempts wait in one FIFO drained by a single microtask. A clock advance raises
   * hundreds of thousands of events in one synchronous call: one queued closure per event would
   * keep each event's payload alive until the call returns; this keeps an id, and none at all
   * for an event that has nowhere to go and nobody watching.
   */
  private readonly firstAttempts: string[] = [];
  /**
   * The events settled with no endpoint by their transaction while attempts are listened to, by
   * the event raised: `tellNoEndpoint` tells them once the commit's events are on the bus, from
   * the record written. Not later: a read of the record, held as bytes since, would parse it and
   * keep it parsed, and a record kept until a later turn of the event loop outlives V8's young
   * generation (told from the first attempts' microtask, a year of daily billing with a listener
   * peaked at 358 to 372 MB; told here, 254 to 257). A transaction that fails drops its own.
   */
  private readonly unannounced = new WeakMap<RaisedEvent, EventRecord>();

  private tellNoEndpoint(events: readonly RaisedEvent[]): void {
    for (const raised of events) {
      const settled = this.unannounced.get(raised);
      if (settled === undefined) continue;
      this.unannounced.delete(raised);
      this.bus.emit('webhook.attempt', { event: settled, attempt: null });
    }
  }

  private enqueue(raised: RaisedEvent): void {
    const id = raised.id;
    // Told by `tellNoEndpoint`: nothing to send.
    if (this.unannounced.has(raised)) return;
    // An event held as written is settled (see the constructor): nothing to send, and no parse to learn it.
    if ((this.store.isHeld(Events, id) || this.store.get(Events, id)?.next_attempt_at === null) && !this.bus.has('webhook.attempt')) return;
    if (this.firstAttempts.push(id) === 1) queueMicrotask(() => this.drainFirstAttempts());
  }

  /**
   * Starts the queued first attempts, in event order; with webhook chaos each draws its plan
   * here (so the same seed gives the same pattern), and a delayed one waits its real time first.
   */
  private drainFirstAttempts(): void {
    for (const id of this.firstAttempts.splice(0)) this.chaos.start(id, () => void this.attempt(id));
  }

  /** Delivers the event again, as a new cycle of attempts with the same event id. */
  resend(id: string): EventRecord | undefined {
    const event = this.store.get(Events, id);
    if (!event) return undefined;
    this.later.cancel(id);
    const updated = this.store.transaction((tx) =>
      tx.put(Events, { ...event, delivery_status: 'pending', cycle_attempts: 0, next_attempt_at: this.clock.now() }),
    );
    // Once committed: with an Idempotency-Key the resend is nested in the transaction that saves
    // its answer, and an attempt started now would read the event as it was.
    this.store.afterCommit(() => void this.attempt(id));
    return updated;
  }

  /**
   * Where a Source's webhooks go: the destination set for it at run time (`PUT /_payemu/webhook`),
   * else its config's `webhook_url`, else `--webhook-url`, else nowhere. On the delivery path:
   * one lookup by id in memory.
   */
  endpointFor(source: { slug: string; webhook_url: string | null }): string | null {
    return this.store.get(WebhookDestinations, source.slug)?.url ?? source.webhook_url ?? this.options.webhookUrl ?? null;
  }

  /** Whether `--strict-webhook-urls` is on: a destination set at run time is held to it at once. */
  get strictUrls(): boolean {
    return this.options.strictUrls;
  }

  isInFlight(id: string): boolean {
    return this.inFlight.has(id);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.undue();
    for (const off of this.unsubscribe) off();
    this.later.close();
    this.chaos.close();
    this.lanes.close();
    // An attempt cut short stays in the store as in progress: the next start marks it
    // interrupted and retries it (the same as after a crash).
    for (const { abort } of this.inFlight.values()) abort.abort();
    await Promise.allSettled([...this.inFlight.values()].map((f) => f.done));
  }

  /** The event's next attempt is due at `next_attempt_at`: kept for an advance, and timed. */
  private schedule(event: EventRecord): void {
    if (this.closed || event.next_attempt_at === null) return;
    this.later.schedule(event.id, event.next_attempt_at);
  }

  /**
   * For `Timers.idle()`: a first attempt queued, an attempt out or waiting for a slot, or a
   * retry due at or before the virtual now (its timer is about to send it).
   */
  private dueNow(): boolean {
    if (this.closed) return false;
    if (this.firstAttempts.length > 0 || this.inFlight.size > 0 || this.chaos.delaying()) return true;
    return this.lanes.pending() || this.later.dueNow();
  }

  /** The retries as the scheduler's advance runs them: see RetrySchedule. */
  get retries(): AsyncDueWork {
    return this.later.retries;
  }

  /**
   * Makes the event's next attempt, if it still needs one, in a slot of its Source: at once when
   * one is free, else it waits its turn in the lane and this resolves at once. An attempt of an
   * advance (`forAdvance`) waits for the next free slot, ahead of the lane, and this resolves
   * when it has ended, with the virtual time it started (undefined when none was made).
   */
  private async attempt(id: string, forAdvance = false): Promise<number | undefined> {
    try {
      return await this.attemptNow(id, forAdvance);
    } catch (error) {
      // The disk refused the attempt's bookkeeping (nothing of it was applied): logged, and
      // the attempt made again later; never an unhandled rejection that would stop payemu.
      if (!(error instanceof WriteRefused) || this.closed) throw error;
      this.bus.emit('server.error', { method: 'WEBHOOK', path: id, error: error.message });
      this.later.again(id, REFUSED_RETRY_MS);
      return undefined;
    }
  }

  private async attemptNow(id: string, forAdvance: boolean): Promise<number | undefined> {
    const target = this.target(id);
    if (!target) {
      this.chaos.drop(id);
      return undefined;
    }
    const lane = this.lanes.lane(target.source.slug);
    if (this.lanes.take(lane)) return this.deliver(lane, id, target);
    if (!forAdvance) {
      this.lanes.wait(lane, id);
      return undefined;
    }
    // Resolved (or at close) with a slot taken for this attempt.
    await this.lanes.waitUrgent(lane);
    return this.deliver(lane, id, this.target(id));
  }

  /**
   * Where the event's next attempt goes, when it needs one now and is not already out. An event
   * whose Source has no endpoint is settled as `no_endpoint`.
   */
  private target(id: string): Target | undefined {
    if (this.closed || this.inFlight.has(id)) return undefined;
    const event = this.store.get(Events, id);
    if (event?.delivery_status === 'no_endpoint' && attemptsOf(event).length === 0 && this.bus.has('webhook.attempt')) {
      this.bus.emit('webhook.attempt', { event, attempt: null });
    }
    if (!event || event.next_attempt_at === null) return undefined;
    const source = this.config().sources.find((s) => s.slug === event.source);
    const url = source ? this.endpointFor(source) : null;
    if (!url || !source) {
      const updated = this.store.transaction((tx) => tx.put(Events, { ...event, delivery_status: 'no_endpoint', next_attempt_at: null }));
      this.bus.emit('webhook.attempt', { event: updated, attempt: null });
      return undefined;
    }
    return { event, source, url };
  }

  /** One attempt, in a slot of `lane` already taken for it (given back when it ends); resolves with its virtual start. */
  private async deliver(lane: Lane, id: string, target: Target | undefined): Promise<number | undefined> {
    if (!target) {
      this.lanes.release(lane);
      return undefined;
    }
    const { event, source, url } = target;
    // Chaos touches the first attempt only: a retry (or a resend) carries none.
    const plan = this.chaos.take(event);
    const abort = new AbortController();
    let finish = () => {};
    const done = this.timers.track(new Promise<void>((resolve) => (finish = resolve)));
    this.inFlight.set(id, { abort, done });
    try {
      // Logged (a journal line: write(2) before this returns) before the request can go out.
      const started = startedAttempt(url, this.clock.now(), plan?.label ?? null);
      this.store.transaction((tx) => tx.put(Events, withStarted(event, started)));
      const elapsed = stopwatch();
      const outcome = await sendWebhook(event, url, chaosSigning(plan, source.webhook_secret), abort.signal, this.options);
      if (abort.signal.aborted) return undefined;
      let updated = this.record(id, { ...outcome, duration_ms: Math.round(elapsed()), at: started.at, url, chaos: started.chaos });
      if (plan?.duplicate && updated) updated = await this.chaos.sendCopy(updated, url, source.webhook_secret, abort.signal);
      // Scheduled once the copy is done: a retry must not find the event still in flight.
      if (updated && updated.next_attempt_at !== null) this.schedule(updated);
      return started.at;
    } finally {
      this.inFlight.delete(id);
      finish();
      this.lanes.release(lane);
    }
  }

  /** The attempt has ended: it takes the place of its in-progress entry. The caller schedules what comes next. */
  private record(id: string, attempt: Attempt): EventRecord | undefined {
    const current = this.store.get(Events, id);
    if (!current) return undefined; // reset while the attempt ran
    const updated = this.store.transaction((tx) => tx.put(Events, settle(current, attempt, this.options.backoffMs, this.clock.now())));
    this.bus.emit('webhook.attempt', { event: updated, attempt });
    return updated;
  }
}
