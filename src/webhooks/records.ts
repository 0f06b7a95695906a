import type { Mode } from '../config/types.js';
import type { ChaosKind } from './chaos.js';
import { type Collection, collection, type StoredRecord } from '../store/collection.js';
import { byScope } from '../lib/scope-key.js';
import { eventRecordSchema } from './record-schema.js';

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
 * that raised it, so an event exists exactly when its change does. Stored lean: a year of daily
 * billing raises 730,000 of them, each of which reaches V8's old generation before the log's cap
 * lets it go, and each is written to the journal. So the webhook body is not kept whole (it is
 * `{event, data}`: `eventBody`), the reference is read from the data (`eventReference`), and the
 * attempt log and its counter are absent until the first attempt (`attemptsOf`, `cycleAttempts`).
 */
export interface EventRecord {
  /** UUID v4: the `X-Webhook-Event-Id`. */
  id: string;
  source: string;
  mode: Mode;
  /** The event's name (one of the catalogue's: the engine knows none). */
  event: string;
  /** `data` of the webhook body. */
  data: Record<string, unknown>;
  created_at: number;
  delivery_status: DeliveryStatus;
  /** Absent until the first attempt. */
  attempts?: Attempt[];
  /** Attempts made in the current delivery cycle (a resend starts a new one); absent: 0. */
  cycle_attempts?: number;
  /** Virtual time of the next attempt; null when nothing is pending. */
  next_attempt_at: number | null;
}

const NO_ATTEMPTS: readonly Attempt[] = Object.freeze([]);

/** The event's attempt log, oldest first (empty before the first attempt). */
export const attemptsOf = (event: EventRecord): readonly Attempt[] => event.attempts ?? NO_ATTEMPTS;

/** Attempts made in the event's current delivery cycle. */
export const cycleAttempts = (event: EventRecord): number => event.cycle_attempts ?? 0;

/** The webhook body: what a receiver gets, and `payload` of the event log. */
export const eventBody = (event: EventRecord): { event: string; data: Record<string, unknown> } => ({ event: event.event, data: event.data });

/** The reference an event's data is about (a payment's, a schedule's, an invoice's id), for look-ups. */
export const referenceOf = (data: Record<string, unknown>): string | null => (typeof data.reference === 'string' ? data.reference : null);

/** The reference the event is about. */
export const eventReference = (event: EventRecord): string | null => referenceOf(event.data);

/**
 * An event as earlier versions stored it (the body whole in `payload`, a copy of its reference,
 * an empty attempt log and a zero counter), in this version's shape; a current one as it is. A
 * record half of each (an old one a compaction laid fields of this version over) is read too.
 */
export function upgradeEvent(stored: StoredRecord): EventRecord {
  const old = stored as EventRecord & { payload?: { data?: Record<string, unknown> }; reference?: unknown };
  if (old.payload === undefined && old.reference === undefined && old.attempts?.length !== 0 && old.cycle_attempts !== 0) return old;
  const { payload, reference: _reference, attempts, cycle_attempts, ...rest } = old;
  return {
    ...rest,
    data: old.data ?? payload?.data ?? {},
    ...(attempts !== undefined && attempts.length > 0 ? { attempts } : {}),
    ...(cycle_attempts !== undefined && cycle_attempts !== 0 ? { cycle_attempts } : {}),
  };
}

/** Delivered, failed for good, or with nowhere to go: nothing is due for it. */
export const isSettled = (status: DeliveryStatus): boolean => status === 'delivered' || status === 'failed' || status === 'no_endpoint';

export const Events = collection<EventRecord>('events', { scope: byScope }, upgradeEvent);

/**
 * The events collection as the catalogue lists it: its stored-record schema (what a snapshot
 * import holds each record to) takes `event` from the catalogue's event names, which the engine
 * does not know. A thunk, as the catalogue lists this collection before it has joined the
 * modules' events; the schema is made once, on first use.
 */
export function eventsCollection(eventNames: () => readonly string[]): Collection<EventRecord> {
  let schema: Readonly<Record<string, unknown>> | undefined;
  return {
    ...Events,
    get schema() {
      schema ??= eventRecordSchema(eventNames());
      return schema;
    },
  };
}

declare module '../bus/bus.js' {
  interface BusEvents {
    /** A webhook delivery attempt finished (`attempt` null: the Source has no endpoint). */
    'webhook.attempt': { event: EventRecord; attempt: Attempt | null };
  }
}
