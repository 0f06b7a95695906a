/**
 * The answers of the control plane as the client reads them: derived from the schemas the OpenAPI
 * document publishes (src/types.ts, type-only imports: the server stays out of the CLI's bundle).
 * Written here is only what no answer schema holds: the client's own arguments and the stream.
 */
export type {
  AdvanceResult,
  AttemptView,
  CardAttempt as Card,
  ClockView,
  CompleteResult,
  EventView,
  FaultInput,
  FaultView,
  InvoicePayResult,
  LinkPayResult,
  PaymentSummary,
  RequestList,
  RequestView,
  ResetResult,
  TriggerReport as TriggerResult,
  WebhookChaosView,
} from '../types.js';
import type { AttemptView, ClockView, EventView } from '../types.js';

export type Mode = 'test' | 'live';

/** Either a duration (`"30d"`, `"12h"`, or seconds) or a timestamp to move to. */
export type AdvanceBy = { by: string | number; to?: never } | { to: string; by?: never };

/** A scripted outcome (`POST`/`GET /_payemu/outcomes`): one target, its sequence, the steps left. */
export interface OutcomeScript {
  id: string;
  payment_method?: string;
  schedule?: string;
  reference?: string;
  sequence: string[];
  remaining: number;
}

/** `POST /_payemu/outcomes`: one target and the outcomes (`approved` or a failure code) in order. */
export type OutcomeScriptInput = ({ payment_method: string } | { schedule: string } | { reference: string }) & { sequence: string[] };

/** `GET /_payemu/snapshot`: a Source and mode's (or, with `all`, everything's) whole state. */
export interface Snapshot {
  payemu_snapshot: number;
  scope: 'all' | { source: string; mode: Mode };
  clock: ClockView;
  data: Record<string, { id: string }[]>;
}

/** `POST /_payemu/snapshot`: what was replaced and written. */
export interface SnapshotImport {
  scope: 'all' | { source: string; mode: Mode };
  removed: number;
  counts: Record<string, number>;
  /** Payments and payment links written under a new id because another Source or mode uses theirs: collection -> {old id: new id}; `{}` when none moved. */
  renumbered: Record<string, Record<string, number>>;
  now: string;
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
