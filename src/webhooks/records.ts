import type { EventName } from '../bus/events.js';
import type { Mode } from '../config/types.js';
import { collection } from '../store/collection.js';
import { scopeKey } from '../lib/scope-key.js';

export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed' | 'no_endpoint';

/** One delivery attempt as the control plane shows it (DESIGN.md section 7). */
export interface Attempt {
  /** HTTP status, or null when no answer came (refused, timed out). */
  status: number | null;
  /** The first 4 KiB of the answer. */
  response_body: string | null;
  duration_ms: number;
  error: string | null;
  /** Virtual time of the attempt (epoch ms). */
  at: number;
  url: string;
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
  scope: (e) => scopeKey(e.source, e.mode),
});
