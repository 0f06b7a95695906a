import type { EventName } from '../bus/events.js';
import type { Mode } from '../config/types.js';
import type { ChaosKind } from './chaos.js';
import { collection } from '../store/collection.js';
import { byScope } from '../lib/scope-key.js';

export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed' | 'no_endpoint';

/**
 * One delivery attempt (the control plane shows it with presentAttempt). An attempt is stored
 * when it starts, before its request goes out, and rewritten in place when it ends: a crash in
 * between leaves it `in_progress` in the store, and the next start marks it `interrupted`.
 */
export interface Attempt {
  /** HTTP status, or null when no answer came (refused, timed out, not ended). */
  status: number | null;
  /** The first 4 KiB of the answer. */
  response_body: string | null;
  /** 0 until the attempt has ended; not known for an interrupted one. */
  duration_ms: number;
  error: string | null;
  /** Virtual time the attempt started (epoch ms). */
  at: number;
  url: string;
  /**
   * Only on an attempt that has not ended with an answer or a failure of its own: `in_progress`
   * while its request is out, `interrupted` when payemu stopped (or crashed) before it ended.
   * An ended attempt has none: its status and error say how it went.
   */
  state?: 'in_progress' | 'interrupted';
  /**
   * The webhook chaos the attempt carried (docs/chaos.md): only a first attempt, or the second
   * copy of a duplicated delivery (`duplicate`). Absent on attempts logged before chaos existed.
   */
  chaos?: ChaosKind | null;
}

/** How an attempt stands, as the control plane and the terminal UI show it. */
export type AttemptState = 'in_progress' | 'interrupted' | 'succeeded' | 'failed';

export function attemptState(attempt: Pick<Attempt, 'status' | 'state'>): AttemptState {
  if (attempt.state) return attempt.state;
  return attempt.status !== null && attempt.status >= 200 && attempt.status < 300 ? 'succeeded' : 'failed';
}

/**
 * A domain event and its webhook delivery. Written in the same transaction as the state change
 * that raised it, so an event exists exactly when its change does.
 */
export interface EventRecord {
  /** UUID v4: the `X-Webhook-Event-Id`. */
  id: string;
  source: string;
  mode: Mode;
  event: EventName;
  /** The webhook body: `{event, data}`. */
  payload: { event: EventName; data: Record<string, unknown> };
  /** The reference the event is about (a payment's, a schedule's), for look-ups. */
  reference: string | null;
  created_at: number;
  delivery_status: DeliveryStatus;
  attempts: Attempt[];
  /** Attempts made in the current delivery cycle (a resend starts a new one). */
  cycle_attempts: number;
  /** Virtual time of the next attempt; null when nothing is pending. */
  next_attempt_at: number | null;
}

export const Events = collection<EventRecord>('events', {
  scope: byScope,
});

declare module '../bus/bus.js' {
  interface BusEvents {
    /** A webhook delivery attempt finished (`attempt` null: the Source has no endpoint). */
    'webhook.attempt': { event: EventRecord; attempt: Attempt | null };
  }
}
