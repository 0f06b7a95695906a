import type { EventName } from '../bus/events.js';

/**
 * The answers of the control plane as the client reads them. Written here rather than imported
 * from the routes: the client speaks HTTP only, and must not pull the server into the CLI's
 * bundle. Only the fields payemu's own callers read are spelled out.
 */

export type Mode = 'test' | 'live';

/** `GET /_payemu/clock`. */
export interface ClockView {
  now: string;
  offset_seconds: number;
  frozen: boolean;
}

/** `POST /_payemu/clock/advance`: where the clock went and how many jobs of each kind ran. */
export interface AdvanceResult extends ClockView {
  ran: Record<string, number>;
  items: unknown[];
}

/** Either a duration (`"30d"`, `"12h"`, or seconds) or a timestamp to move to. */
export type AdvanceBy = { by: string | number; to?: never } | { to: string; by?: never };

/** `POST /_payemu/reset`. */
export interface ResetResult {
  removed: number;
  scope: 'all' | { source: string; mode: Mode };
  now: string;
}

/** One delivery attempt of an event; `state` is `in_progress`, `interrupted`, `succeeded` or `failed`. */
export interface AttemptView {
  status: number | null;
  response_body: string | null;
  duration_ms: number | null;
  error: string | null;
  at: string;
  url: string;
  state: string;
  /** The webhook chaos the attempt carried, or null. */
  chaos?: 'duplicate' | 'delayed' | 'stale_timestamp' | 'bad_signature' | null;
}

/** An event of the control plane's log (`GET /_payemu/events`, `/_payemu/events/{id}`). */
export interface EventView {
  id: string;
  event: EventName | (string & {});
  source: string;
  mode: Mode;
  reference: string | null;
  created_at: string;
  payload: { data: { amount?: number | string; currency?: string } & Record<string, unknown> } & Record<string, unknown>;
  delivery_status: string;
  next_attempt_at: string | null;
  attempts: AttemptView[];
}

/** What `GET /_payemu/events` filters on. */
export interface EventFilter {
  event?: string;
  reference?: string;
  delivery_status?: string;
  limit?: number | string;
}

/** A message of `GET /_payemu/events/stream`: an event raised, or a delivery attempt that ended. */
export type StreamMessage =
  | { type: 'event'; data: EventView }
  | { type: 'attempt'; data: { event_id: string; event: string; delivery_status: string; attempt: AttemptView | null } };

/** `POST /_payemu/trigger`: the API calls the fixture made and the event that resulted. */
export interface TriggerResult {
  event: string;
  event_id: string | null;
  source: string;
  mode: string;
  steps: { id: string; method: string; path: string; status: number; created: string | null }[];
}

/** The card a hosted page would be given. */
export interface Card {
  card_number: string;
  three_ds?: 'pass' | 'fail';
}

/** The payment an attempt made, as the pay endpoints name it. */
export interface PaymentSummary {
  id: number;
  status: string;
  amount: string;
  currency: string;
  reference: string;
  failure_code?: string | null;
  failure_message?: string | null;
  [field: string]: unknown;
}

/**
 * `POST /_payemu/sessions/{id}/complete`: a checkout answers with its payment; a card-update
 * (payment-method) session with whether the card was saved.
 */
export interface CompleteResult {
  session: { id: string; status: string; [field: string]: unknown };
  payment?: PaymentSummary;
  updated?: boolean;
  payment_method?: { id: string; card_brand: string; card_last: string };
  failure_code?: string;
  failure_message?: string;
  [field: string]: unknown;
}

/** `POST /_payemu/invoices/{id}/pay`. */
export interface InvoicePayResult {
  invoice: Record<string, unknown>;
  payment: PaymentSummary;
}

/** `POST /_payemu/payment-links/{id}/pay`. */
export interface LinkPayResult {
  session_id: string;
  payment: PaymentSummary;
  payment_link: Record<string, unknown>;
}

/** `GET`/`PUT /_payemu/webhook-chaos`: `{}` when off. */
export interface WebhookChaosView {
  duplicate?: number;
  delay?: string;
  stale_timestamp?: number;
  bad_signature?: number;
  seed?: number;
}

/** One `/v1` request of the request journal (`GET /_payemu/requests`). */
export interface RequestView {
  id: string;
  at: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** null when the connection closed before an answer was sent. */
  status: number | null;
  duration_ms: number;
  idempotency_key: string | null;
  replayed: boolean;
  fault: string | null;
  /** The JSON as sent; a body that is not JSON, or was cut at 16 KiB, as text; null when none. */
  request_body: unknown;
  response_body: unknown;
}

/** `GET /_payemu/requests`: newest first; `total` counts every match. */
export interface RequestList {
  requests: RequestView[];
  total: number;
}

/** What `GET /_payemu/requests` filters on. */
export interface RequestFilter {
  method?: string;
  /** `*` stands for one segment, `**` for the rest. */
  path?: string;
  /** `422` or `4xx`. */
  status?: string | number;
  /** Exclusive timestamp. */
  since?: string;
  limit?: number | string;
}
