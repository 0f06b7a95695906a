import type { BusEvents, Bus } from '../bus/bus.js';
import type { Mode } from '../config/types.js';
import type { LibraryMethods } from '../control/operation.js';
import type { OutcomeScriptInput as ScriptInput } from '../control/operations/outcomes-add.js';
import type { Operations } from '../control/operations.js';
import type { ScriptStep } from '../resources/outcomes/records.js';
import type { presentEvent } from '../webhooks/present.js';
import type { DeliveryStatus } from '../webhooks/records.js';
import type { EventName } from '../types.js';

// The object `startEmulator` returns, as the library's users see it (re-exported by src/emulator.ts):
// its own members, and the control operations' methods (operations.ts), typed from their entries.

export type { ScopeOption } from '../control/operation.js';

export type OutcomeScriptInput = ScriptInput<ScriptStep>;

/**
 * What `startEmulator` resolves to. Besides the members below, the control operations' methods
 * (`clock`, `trigger`, `outcomes`, `snapshot`, `webhookChaos`, `requests`, `faults`,
 * `events.get`/`resend`), derived from their entries (src/control/operations/, each entry's
 * `library`) and documented in docs/library.md.
 */
export type Emulator = EmulatorCore & LibraryMethods<Operations>;

/**
 * What `emulator.namespace(name)` resolves to: the same members for one named namespace (its
 * state, clock, keys ending in `~NAME`, events and bus), but `close`, `dataDir` and `namespace`,
 * which are the emulator's; and its `name`.
 */
export type NamespaceEmulator = Omit<Emulator, 'close' | 'dataDir' | 'namespace'> & {
  /** The namespace's name, as its keys end in `~NAME`. */
  name: string;
};

interface EmulatorCore {
  /** `http://HOST:PORT` */
  url: string;
  /** The web dashboard, `http://HOST:PORT/_payemu/dashboard`. */
  dashboardUrl: string;
  /** The first Source's keys and webhook secret (what `payemu exec` hands its command). */
  keys: { test: string; live: string };
  webhookSecret: string;
  /** Every Source's keys. */
  sources: { slug: string; name: string; test_key: string; live_key: string; webhook_secret: string }[];
  /** Where a Source's webhooks go now (the destination set with `webhook.set`, else its config's `webhook_url`, else `--webhook-url`), or null. */
  webhookUrl(slug: string): string | null;
  /** The event log of every Source and mode, and live events (`get` and `resend` are the operations'). */
  events: {
    list(filter?: { event?: EventName; reference?: string; delivery_status?: DeliveryStatus; source?: string; mode?: Mode }): EventEntry[];
    /** Calls `listener` with each domain event once it is stored; returns the unsubscribe. */
    on(listener: (event: BusEvents['domain']) => void): () => void;
  };
  /** The event bus: domain events, requests, clock advances, config reloads. */
  bus: Bus;
  dataDir: string | undefined;
  /**
   * Resolves when no work is due or in flight: no clock advance or run of due work, no webhook
   * attempt queued or out, no retry due now. Work due later (a retry on a frozen clock that only
   * an advance reaches) does not hold it. Await it instead of waiting for events.
   */
  idle(): Promise<void>;
  /**
   * The named namespace `name` (made now when it does not exist yet, as a first request with a
   * key ending in `~NAME` makes it), with the same members acting on its state alone. Rejects
   * with a RangeError for a name that breaks the rule, or one namespace more than
   * `maxNamespaces` allows.
   */
  namespace(name: string): Promise<NamespaceEmulator>;
  close(): Promise<void>;
}

/** What `Emulator.requests` filters on (the query of `GET /_payemu/requests`), and whose journal it reads. */
export interface RequestsFilter {
  method?: string;
  /** `*` stands for one path segment, `**` for the rest. */
  path?: string;
  /** A status (`422`) or a class (`"4xx"`). */
  status?: number | string;
  /** Only requests after this timestamp (exclusive). */
  since?: string;
  /** Default 100. */
  limit?: number;
  /** Whose journal: a Source's test or live key (default the first Source's test key). */
  key?: string;
}

/** An event of the log as `GET /_payemu/events` shows it, named by one of the catalogue's events. */
export type EventEntry = ReturnType<typeof presentEvent> & { event: EventName; payload: { event: EventName } };
