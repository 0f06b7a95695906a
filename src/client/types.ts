/**
 * The answers of the control plane as the client reads them: derived from the schemas the OpenAPI
 * document publishes (src/control/types.ts, type-only imports: the server stays out of the CLI's bundle).
 * Written here is only what no answer schema holds: the client's own arguments and the stream.
 */
export type * from '../control/types.js';
// The names the client's callers know them by.
export type { CardAttempt as Card, TriggerReport as TriggerResult } from '../control/types.js';
export type { PaymentSummary } from '../schemas/payments.js';
import type { AttemptView, ClockView, EventView } from '../control/types.js';

export type Mode = 'test' | 'live';

// The arguments of the control operations' methods are their entries' (src/control/operations/).
export type { AdvanceBy } from '../control/operations/clock-advance.js';
export type { EventFilter } from '../control/operations/events-list.js';
export type { OutcomeScriptInput } from '../control/operations/outcomes-add.js';
export type { RequestFilter } from '../control/operations/requests-list.js';

/** A scripted outcome (`POST`/`GET /_payemu/outcomes`): one target, its sequence, the steps left. */
export interface OutcomeScript {
  id: string;
  payment_method?: string;
  schedule?: string;
  reference?: string;
  sequence: string[];
  remaining: number;
}

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

/** A message of `GET /_payemu/events/stream`: an event raised, or a delivery attempt that ended. */
export type StreamMessage =
  | { type: 'event'; data: EventView }
  | { type: 'attempt'; data: { event_id: string; event: string; delivery_status: string; attempt: AttemptView | null } };
