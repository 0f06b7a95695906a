import type { BusEvents, Bus } from '../bus/bus.js';
import type { FaultInput, FaultView } from '../client/types.js';
import type { Mode } from '../config/types.js';
import type { OutcomeScriptView } from '../control/outcomes.js';
import type { ImportReport, SnapshotDocument } from '../control/snapshot.js';
import type { TriggerResult } from '../control/triggers/run.js';
import type { RequestEntryView } from '../http/request-journal.js';
import type { ScriptStep } from '../resources/outcomes/records.js';
import type { WebhookChaosSettings } from '../webhooks/chaos.js';
import type { presentEvent } from '../webhooks/present.js';
import type { DeliveryStatus } from '../webhooks/records.js';
import type { EventName } from '../types.js';

// The object `startEmulator` returns, as the library's users see it (re-exported by src/emulator.ts).
// Each family of methods is made in its own file of this folder.

/** Which Source and mode a library call acts as: the first Source in test mode by default. */
export interface ScopeOption {
  source?: string;
  mode?: Mode;
}

export type OutcomeScriptInput = ({ payment_method: string } | { schedule: string } | { reference: string }) & { sequence: ScriptStep[] };

export interface Emulator {
  /** `http://HOST:PORT` */
  url: string;
  /** The web dashboard, `http://HOST:PORT/_payemu/dashboard`. */
  dashboardUrl: string;
  /** The first Source's keys and webhook secret (what `payemu exec` hands its command). */
  keys: { test: string; live: string };
  webhookSecret: string;
  /** Every Source's keys. */
  sources: { slug: string; name: string; test_key: string; live_key: string; webhook_secret: string }[];
  /** Where a Source's webhooks go now (its config's `webhook_url`, else `--webhook-url`), or null. */
  webhookUrl(slug: string): string | null;
  clock: {
    now(): string;
    /**
     * Moves virtual time forward (`"30d"`, `"12h"`, seconds as a number; at most 3,653 days) and
     * runs what falls due, in time order. Resolves when done; requests are answered meanwhile.
     */
    advance(by: string | number): Promise<{ now: string; ran: Record<string, number> }>;
  };
  /**
   * Makes an event happen through real state changes (the fixture of `payemu trigger`), as the
   * first Source in test mode unless `source`/`mode` say otherwise.
   */
  trigger(event: EventName, options?: { data?: Record<string, unknown>; source?: string; mode?: Mode }): Promise<TriggerResult>;
  /** The event log (as `GET /_payemu/events` shows it) and live events. */
  events: {
    list(filter?: { event?: EventName; reference?: string; delivery_status?: DeliveryStatus; source?: string; mode?: Mode }): EventEntry[];
    get(id: string): EventEntry | undefined;
    /** Delivers the event again, with the same id. */
    resend(id: string): EventEntry | undefined;
    /** Calls `listener` with each domain event once it is stored; returns the unsubscribe. */
    on(listener: (event: BusEvents['domain']) => void): () => void;
  };
  /**
   * Scripted outcomes: the next card payment attempts on a saved card (`payment_method`), a
   * schedule (`schedule`, its reference) or a payment `reference` take the outcomes of
   * `sequence` in order (`approved` or a failure code). As the first Source in test mode unless
   * `source`/`mode` say otherwise. A bad script throws (the 422's message) and changes nothing.
   */
  outcomes: {
    add(script: OutcomeScriptInput, options?: ScopeOption): OutcomeScriptView;
    list(options?: ScopeOption): OutcomeScriptView[];
    /** Removes every script of the scope; returns how many there were. */
    clear(options?: ScopeOption): number;
  };
  /**
   * Snapshots: the whole state of a Source and mode (`all: true`: of everything, with the
   * clock) as one JSON document, and back. `import` replaces the scope the document names
   * (`all`: everything and the clock); a malformed one throws (the 422's message) and changes nothing.
   */
  snapshot: {
    export(options?: ScopeOption & { all?: boolean }): SnapshotDocument;
    import(document: SnapshotDocument): ImportReport;
  };
  /**
   * A Source and mode's webhook chaos (`PUT`/`GET`/`DELETE /_payemu/webhook-chaos`): the first
   * Source in test mode unless `scope` says otherwise. `set` replaces it (a RangeError names a
   * wrong field), `get` answers `{}` when it is off.
   */
  webhookChaos: {
    set(settings: WebhookChaosSettings, scope?: { source?: string; mode?: Mode }): WebhookChaosSettings;
    get(scope?: { source?: string; mode?: Mode }): WebhookChaosSettings;
    clear(scope?: { source?: string; mode?: Mode }): void;
  };
  /**
   * The request journal, as `GET /_payemu/requests` shows it: the `/v1` requests of the Source
   * and mode that `key` opens (default: the first Source's test key), newest first, with `total`
   * counting every match. A bad filter throws a RangeError; `requests.clear()` empties it.
   */
  requests: {
    (filter?: RequestsFilter): { requests: RequestEntryView[]; total: number };
    /** Empties the journal of the Source and mode `key` opens; returns how many requests it held. */
    clear(options?: { key?: string }): number;
  };
  /**
   * Faults on /v1 requests (as `/_payemu/faults`), through HTTP with the first Source's test key
   * unless `key` names another Source or mode. Each rejects with an `ApiError` as the client does.
   */
  faults: {
    add(fault: FaultInput, options?: { key?: string }): Promise<FaultView>;
    list(options?: { key?: string }): Promise<FaultView[]>;
    remove(id: string, options?: { key?: string }): Promise<FaultView>;
    /** Resolves with how many were removed. */
    clear(options?: { key?: string }): Promise<number>;
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
