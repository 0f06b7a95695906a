import type { Bus } from '../bus/bus.js';
import { stopwatch, type Clock } from '../clock/clock.js';
import type { TimerHandle, Timers } from '../clock/timers.js';
import type { Store } from '../store/store.js';
import { settleCopy, startedAttempt, withStarted } from './attempts.js';
import { ChaosPlanner, STALE_SECONDS, WRONG_SECRET, type ChaosPlan, type ChaosSettingsOf } from './chaos.js';
import { Events, attemptsOf, type Attempt, type EventRecord } from './records.js';
import { sendWebhook, type SendOptions, type Signing } from './send.js';

/**
 * What webhook chaos does to first attempts (docs/chaos.md), for the dispatcher: each draws its
 * plan when it is started (so the same seed gives the same pattern), a delayed one waits its real
 * time first, then it goes out signed as its plan says and, for a duplicate, is followed by a
 * second copy. A retry (or a resend) carries none. Without settings, every attempt goes at once.
 */
export class ChaosEffects {
  private readonly planner: ChaosPlanner | undefined;
  /** The plans drawn for first attempts not made yet. */
  private readonly plans = new Map<string, ChaosPlan>();
  /** The first attempts waiting out a delay. */
  private readonly delayed = new Map<string, TimerHandle>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly bus: Bus,
    private readonly timers: Timers,
    private readonly options: SendOptions & { chaos?: ChaosSettingsOf },
  ) {
    this.planner = options.chaos && new ChaosPlanner(options.chaos);
  }

  /** Starts an event's first attempt (`go`): at once, or after its plan's delay. */
  start(id: string, go: () => void): void {
    const plan = this.planFor(id);
    if (plan) this.plans.set(id, plan);
    if (!plan || plan.delayMs <= 0) {
      go();
      return;
    }
    this.delayed.set(
      id,
      this.timers.after(plan.delayMs, () => {
        this.delayed.delete(id);
        go();
      }),
    );
  }

  /** The chaos of an event's first attempt, if its Source and mode have any and it has somewhere to go. */
  private planFor(id: string): ChaosPlan | undefined {
    if (!this.planner) return undefined;
    const event = this.store.get(Events, id);
    if (!event || attemptsOf(event).length > 0 || event.next_attempt_at === null) return undefined;
    return this.planner.plan(event.source, event.mode);
  }

  /** The plan of the attempt about to go out, taken: only a first attempt has one. */
  take(event: EventRecord): ChaosPlan | undefined {
    const plan = attemptsOf(event).length === 0 ? this.plans.get(event.id) : undefined;
    this.plans.delete(event.id);
    return plan;
  }

  /** The event's attempt will not be made (it needs none now, or is out already): its plan goes. */
  drop(id: string): void {
    this.plans.delete(id);
  }

  /** A first attempt is waiting out its delay (for `Timers.idle()`). */
  delaying(): boolean {
    return this.delayed.size > 0;
  }

  /** A first attempt waiting out its chaos delay stays pending in the store: the next start sends it. */
  close(): void {
    for (const timer of this.delayed.values()) timer.cancel();
    this.delayed.clear();
    this.plans.clear();
  }

  /**
   * Webhook chaos's duplicate: the same event, the same body, sent again right after the
   * delivery's first attempt, correctly signed, and logged as an attempt with `chaos:
   * "duplicate"` that leaves the delivery's status as it is.
   */
  async sendCopy(event: EventRecord, url: string, secret: string, signal: AbortSignal): Promise<EventRecord | undefined> {
    const started = startedAttempt(url, this.clock.now(), 'duplicate');
    this.store.transaction((tx) => tx.put(Events, withStarted(event, started)));
    const elapsed = stopwatch();
    const outcome = await sendWebhook(event, url, { secret }, signal, this.options);
    if (signal.aborted) return undefined;
    const current = this.store.get(Events, event.id);
    if (!current) return undefined;
    const attempt: Attempt = { ...outcome, duration_ms: Math.round(elapsed()), at: started.at, url, chaos: 'duplicate' };
    const updated = this.store.transaction((tx) => tx.put(Events, settleCopy(current, attempt)));
    this.bus.emit('webhook.attempt', { event: updated, attempt });
    return updated;
  }
}

/** How an attempt is signed: with the Source's secret, unless its plan asks for a bad signature or a stale `t=`. */
export function chaosSigning(plan: ChaosPlan | undefined, secret: string): Signing {
  return plan?.signature === 'bad_signature' ? { secret: WRONG_SECRET } : { secret, ageSeconds: plan?.signature === 'stale_timestamp' ? STALE_SECONDS : 0 };
}
