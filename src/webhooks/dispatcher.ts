import type { Bus } from '../bus/bus.js';
import { stopwatch, wallClock, type Clock } from '../clock/clock.js';
import type { PayemuConfig } from '../config/types.js';
import type { Store } from '../store/store.js';
import { inProgress, interrupted, settle, startedAttempt, withStarted } from './attempts.js';
import { Events, type Attempt, type EventRecord } from './records.js';
import { signatureHeader } from './signature.js';
import { strictRefusal } from './strict-url.js';

export interface DispatcherOptions {
  /** For every Source whose config has no `webhook_url`. */
  webhookUrl?: string;
  /** Waits before retries 1, 2 and 3 (virtual time). */
  backoffMs: number[];
  timeoutMs: number;
  strictUrls: boolean;
}

type Got = typeof import('got').got;
let gotPromise: Promise<Got> | undefined;
// got is needed only once a webhook goes out; importing it lazily keeps start-up fast.
const loadGot = () => (gotPromise ??= import('got').then((m) => m.got));

const RESPONSE_LIMIT = 4096;

/** How a request went: the fields of an attempt that only its end knows. */
type Outcome = Pick<Attempt, 'status' | 'response_body' | 'error'>;

/**
 * Deliveries in flight at once per Source; later ones wait their turn in event order. A clock
 * advance of a year raises hundreds of thousands of events in one call: without a bound each
 * would open its own connection at once.
 */
export const MAX_IN_FLIGHT_PER_SOURCE = 64;

/** One Source's deliveries: how many are in flight, and the ids waiting for a free slot. */
interface Lane {
  active: number;
  waiting: string[];
  head: number;
}

/**
 * Delivers each event to its Source's endpoint: signed POSTs with `got` (its own retries off;
 * these are ours), a non-2xx answer, a timeout or a refused connection retried after each wait
 * of the backoff. Every attempt is stored on the event when it starts, before its request goes
 * out, and again when it ends; one cut off by a stop or a crash is marked interrupted at the
 * next start and retried like any failure. Retries are due on the virtual clock, so advancing
 * it sends them at once; otherwise a timer sends them when the wait has passed.
 * Deliveries never block each other: first attempts start in event order and run concurrently.
 */
export class Dispatcher {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private readonly lanes = new Map<string, Lane>();
  private closed = false;
  private unsubscribe: (() => void)[] = [];

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly bus: Bus,
    private readonly config: () => PayemuConfig,
    private readonly options: DispatcherOptions,
  ) {
    // An event raised for a Source without an endpoint is settled in its own transaction (one
    // journal line), not by a second write when its delivery would start.
    store.beforeCommit((tx) => {
      for (const raised of tx.events) {
        const source = this.config().sources.find((s) => s.slug === raised.source);
        if (source && this.endpointFor(source) !== null) continue;
        const event = tx.get(Events, raised.id);
        if (event && event.attempts.length === 0) tx.put(Events, { ...event, delivery_status: 'no_endpoint', next_attempt_at: null });
      }
    });
  }

  /**
   * Starts delivering; events left pending by a previous run are picked up, and attempts it
   * left in progress (it stopped or crashed while they were out) are marked interrupted first.
   */
  start(): void {
    this.closeInterrupted();
    this.unsubscribe.push(
      // After every other listener has heard of the event (a stream shows the event before its
      // first attempt); microtasks keep first attempts in event order.
      this.bus.on('domain', (event) => this.enqueue(event.id)),
      this.bus.on('clock.advanced', () => this.runDue()),
    );
    for (const event of this.store.all(Events)) if (event.next_attempt_at !== null) this.schedule(event);
  }

  /**
   * An attempt still in progress in the store was cut off: the receiver may or may not have
   * got it. It counts as a failed attempt (shown as `interrupted`), and the delivery goes on by
   * the backoff like after any failure. One transaction for all of them.
   */
  private closeInterrupted(): void {
    const cut: EventRecord[] = [];
    for (const event of this.store.all(Events)) if (inProgress(event)) cut.push(event);
    if (cut.length === 0) return;
    this.store.transaction((tx) => {
      for (const event of cut) tx.put(Events, settle(event, interrupted(inProgress(event)!), this.options.backoffMs));
    });
  }

  /**
   * First attempts wait in one FIFO drained by a single microtask. A clock advance raises
   * hundreds of thousands of events in one synchronous call: one queued closure per event would
   * keep each event's payload alive until the call returns; this keeps an id, and none at all
   * for an event that has nowhere to go and nobody watching.
   */
  private readonly firstAttempts: string[] = [];

  private enqueue(id: string): void {
    if (this.store.get(Events, id)?.next_attempt_at === null && !this.bus.has('webhook.attempt')) return;
    if (this.firstAttempts.push(id) === 1) queueMicrotask(() => this.drainFirstAttempts());
  }

  private drainFirstAttempts(): void {
    for (const id of this.firstAttempts.splice(0)) void this.attempt(id);
  }

  /** Delivers the event again, as a new cycle of attempts with the same event id. */
  resend(id: string): EventRecord | undefined {
    const event = this.store.get(Events, id);
    if (!event) return undefined;
    this.cancel(id);
    const updated = this.store.transaction((tx) =>
      tx.put(Events, { ...event, delivery_status: 'pending', cycle_attempts: 0, next_attempt_at: this.clock.now() }),
    );
    void this.attempt(id);
    return updated;
  }

  /** Where a Source's webhooks go: its config's `webhook_url`, else `--webhook-url`, else nowhere. */
  endpointFor(source: { webhook_url: string | null }): string | null {
    return source.webhook_url ?? this.options.webhookUrl ?? null;
  }

  isInFlight(id: string): boolean {
    return this.inFlight.has(id);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const off of this.unsubscribe) off();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.lanes.clear();
    // An attempt cut short stays in the store as in progress: the next start marks it
    // interrupted and retries it (the same as after a crash).
    for (const { abort } of this.inFlight.values()) abort.abort();
    await Promise.allSettled([...this.inFlight.values()].map((f) => f.done));
  }

  private schedule(event: EventRecord): void {
    if (this.closed || event.next_attempt_at === null) return;
    this.cancel(event.id);
    const delay = Math.max(0, event.next_attempt_at - this.clock.now());
    const timer = setTimeout(() => {
      this.timers.delete(event.id);
      void this.attempt(event.id);
    }, delay);
    timer.unref();
    this.timers.set(event.id, timer);
  }

  private cancel(id: string): void {
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
  }

  /** After a clock advance: every retry now due goes out. */
  private runDue(): void {
    const now = this.clock.now();
    for (const id of [...this.timers.keys()]) {
      const event = this.store.get(Events, id);
      if (event?.next_attempt_at !== null && event?.next_attempt_at !== undefined && event.next_attempt_at <= now) {
        this.cancel(id);
        void this.attempt(id);
      }
    }
  }

  private async attempt(id: string): Promise<void> {
    if (this.closed || this.inFlight.has(id)) return;
    const event = this.store.get(Events, id);
    if (event?.delivery_status === 'no_endpoint' && event.attempts.length === 0 && this.bus.has('webhook.attempt')) {
      this.bus.emit('webhook.attempt', { event, attempt: null });
    }
    if (!event || event.next_attempt_at === null) return;
    const source = this.config().sources.find((s) => s.slug === event.source);
    const url = source ? this.endpointFor(source) : null;
    if (!url || !source) {
      const updated = this.store.transaction((tx) => tx.put(Events, { ...event, delivery_status: 'no_endpoint', next_attempt_at: null }));
      this.bus.emit('webhook.attempt', { event: updated, attempt: null });
      return;
    }
    const lane = this.lane(source.slug);
    if (lane.active >= MAX_IN_FLIGHT_PER_SOURCE) {
      lane.waiting.push(id);
      return;
    }
    lane.active++;
    const abort = new AbortController();
    let finish = () => {};
    const done = new Promise<void>((resolve) => (finish = resolve));
    this.inFlight.set(id, { abort, done });
    try {
      // Logged (a journal line: write(2) before this returns) before the request can go out.
      const started = startedAttempt(url, this.clock.now());
      this.store.transaction((tx) => tx.put(Events, withStarted(event, started)));
      const elapsed = stopwatch();
      const outcome = await this.send(event, url, source.webhook_secret, abort.signal);
      if (abort.signal.aborted) return;
      this.record(id, { ...outcome, duration_ms: Math.round(elapsed()), at: started.at, url });
    } finally {
      this.inFlight.delete(id);
      lane.active--;
      finish();
      this.startWaiting(lane);
    }
  }

  private lane(source: string): Lane {
    let lane = this.lanes.get(source);
    if (!lane) this.lanes.set(source, (lane = { active: 0, waiting: [], head: 0 }));
    return lane;
  }

  /** Fills the free slots from the waiting ids, oldest first. An id whose event no longer
   * needs an attempt (delivered meanwhile, removed by a reset) takes no slot. */
  private startWaiting(lane: Lane): void {
    // attempt() takes its slot before its first await, so `active` is current in this loop.
    while (!this.closed && lane.active < MAX_IN_FLIGHT_PER_SOURCE && lane.head < lane.waiting.length) {
      void this.attempt(lane.waiting[lane.head++]!);
    }
    if (lane.head === lane.waiting.length) {
      lane.waiting = [];
      lane.head = 0;
    } else if (lane.head > 1024 && lane.head * 2 > lane.waiting.length) {
      lane.waiting = lane.waiting.slice(lane.head);
      lane.head = 0;
    }
  }

  /** One request, and how it went. */
  private async send(event: EventRecord, url: string, secret: string, signal: AbortSignal): Promise<Outcome> {
    if (this.options.strictUrls) {
      const refusal = await strictRefusal(url);
      if (refusal) return { status: null, response_body: null, error: refusal };
    }
    const body = JSON.stringify(event.payload);
    const got = await loadGot();
    try {
      const response = await got.post(url, {
        body,
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'payemu-webhooks',
          'X-Webhook-Signature': signatureHeader(secret, body, Math.floor(wallClock.now() / 1000)),
          'X-Webhook-Event': event.event,
          'X-Webhook-Event-Id': event.id,
        },
        timeout: { request: this.options.timeoutMs },
        retry: { limit: 0 },
        throwHttpErrors: false,
        followRedirect: false,
        responseType: 'buffer',
        signal,
      });
      const text = response.body.subarray(0, RESPONSE_LIMIT).toString('utf8');
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return { status: response.statusCode, response_body: text, error: ok ? null : `HTTP ${response.statusCode}` };
    } catch (error) {
      const e = error as NodeJS.ErrnoException;
      const reason = e.code === 'ETIMEDOUT' ? `timed out after ${this.options.timeoutMs} ms` : `${e.code ? `${e.code}: ` : ''}${e.message}`;
      return { status: null, response_body: null, error: reason };
    }
  }

  /** The attempt has ended: it takes the place of its in-progress entry. */
  private record(id: string, attempt: Attempt): void {
    const current = this.store.get(Events, id);
    if (!current) return; // reset while the attempt ran
    const updated = this.store.transaction((tx) => tx.put(Events, settle(current, attempt, this.options.backoffMs)));
    this.bus.emit('webhook.attempt', { event: updated, attempt });
    if (updated.next_attempt_at !== null) this.schedule(updated);
  }
}
