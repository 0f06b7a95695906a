import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from './app.js';
import { Bus, type BusEvents } from './bus/bus.js';
import type { EventName } from './bus/events.js';
import type { Mode } from './config/types.js';
import { runTrigger, type TriggerResult } from './control/triggers/run.js';
import { presentEvent } from './webhooks/present.js';
import { Events, type DeliveryStatus } from './webhooks/records.js';
import { COLLECTIONS, JOB_KINDS, ROUTES } from './catalogue.js';
import { createClock, wallClock, type Clock } from './clock/clock.js';
import { parseDuration } from './clock/duration.js';
import { formatTimestamp, parseTimestamp } from './clock/format.js';
import { advanceClock, advanceSpan } from './control/clock.js';
import { Scheduler } from './clock/scheduler.js';
import { Timers } from './clock/timers.js';
import { buildConfig, ConfigError, loadConfig } from './config/load.js';
import type { PayemuConfig } from './config/types.js';
import { configVersion, watchConfigCreation, watchConfigSoon } from './config/watch.js';
import { Keyring, type Scope } from './http/auth.js';
import { addScript, clearScripts, listScripts, type OutcomeScriptView, type ScriptBody } from './control/outcomes.js';
import type { ScriptStep } from './resources/outcomes/records.js';
import { exportSnapshot, importSnapshot, type ImportReport, type SnapshotDocument } from './control/snapshot.js';
import { hostCheck, normalizeAllowedHost, type HostCheck } from './http/host-check.js';
import { RateLimiter } from './http/rate-limit.js';
import { DEFAULT_JOURNAL_SIZE, parseRequestFilter, RequestJournal, type RequestEntryView } from './http/request-journal.js';
import { HttpError } from './http/errors.js';
import type { Route } from './http/route.js';
import { createServer } from './http/server.js';
import { installConfigFaults, reloadConfigFaults } from './http/faults.js';
import { createClient } from './client/client.js';
import type { FaultInput, FaultView } from './client/types.js';
import { Meta, type MetaRecord } from './resources/meta/records.js';
import { filePersistence } from './store/file-persistence.js';
import { recordLockUrl } from './store/lock.js';
import { memoryPersistence } from './store/persistence.js';
import { Store } from './store/store.js';
import { isSafeUrl } from './lib/schemas.js';
import { DEFAULT_BACKOFF_MS, DEFAULT_TIMEOUT_MS, parseBackoff } from './webhooks/backoff.js';
import { Dispatcher, type DispatcherOptions } from './webhooks/dispatcher.js';
import { keepRecentEvents } from './webhooks/retention.js';
import { checkChaos, parseChaosList, WebhookChaos, type WebhookChaosSettings } from './webhooks/chaos.js';
import { scopeKey } from './lib/scope-key.js';

export interface EmulatorOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * Host names answered besides localhost, 127.0.0.1 and [::1] while bound to a loopback
   * address; any other `Host` header is a 403 (a guard against DNS rebinding).
   */
  allowedHosts?: readonly string[];
  /** Data directory of a file-backed store (default `.payemu` when `inMemory` is false). */
  dataDir?: string;
  /** Keep nothing on disk. Default true for the library, false for `payemu start`. */
  inMemory?: boolean;
  /** A config file path (watched for changes) or a config object, merged onto the defaults. */
  config?: string | Record<string, unknown>;
  /**
   * @internal Without `config`: a config file that does not exist yet, loaded (and then
   * watched) once it is created (`payemu start` passes `./payemu.config.json`).
   */
  configFileIfCreated?: string;
  /** Answer 429 once a Source's per-minute limit is used up, whatever its config says. */
  rateLimit?: boolean;
  /** Where the virtual clock starts on a new store: an ISO 8601 timestamp or epoch ms. */
  clockStart?: string | number;
  /** The clock moves only on advance. */
  freezeClock?: boolean;
  /** Journal bytes after which it is compacted into the snapshot (default 64 MiB). */
  compactAfterBytes?: number;
  /** Webhook endpoint for every Source whose config has no `webhook_url`. */
  webhookUrl?: string;
  /** Waits before retries 1, 2 and 3: `"1s,5s,25s"` (the default) or milliseconds. */
  webhookBackoff?: string | number[];
  /** How long a delivery may take: a duration (`"10s"`, the default) or milliseconds. */
  webhookTimeout?: string | number;
  /** Refuse private and reserved webhook addresses, as the real service does. */
  strictWebhookUrls?: boolean;
  /**
   * A snapshot to start from (a file written by `payemu export` or `exportOnExit`, or the
   * document): an `all` snapshot replaces everything and sets the clock, one of a Source and
   * mode replaces that scope.
   */
  import?: string | SnapshotDocument;
  /** On `close()`, write a snapshot of everything (`all`) to this file first. */
  exportOnExit?: string;
  /**
   * Webhook chaos for every Source, in both modes (docs/chaos.md): settings, or a list as
   * `--webhook-chaos` takes it (`"duplicate=0.2,delay=5s,seed=7"`). Stored, replacing what each
   * Source had; it outlives a restart without the option (clear it with `webhookChaos.clear`).
   */
  webhookChaos?: WebhookChaosSettings | string;
  /** How many `/v1` requests the request journal keeps per Source and mode (default 1,000; 0 keeps none). */
  journalSize?: number;
  /** @internal Routes added to the catalogue's, for tests of the HTTP layer itself. */
  extraRoutes?: readonly Route[];
}

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
    list(filter?: { event?: EventName; reference?: string; delivery_status?: DeliveryStatus; source?: string; mode?: Mode }): ReturnType<typeof presentEvent>[];
    get(id: string): ReturnType<typeof presentEvent> | undefined;
    /** Delivers the event again, with the same id. */
    resend(id: string): ReturnType<typeof presentEvent> | undefined;
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

/**
 * Starts payemu: config, store, clock, scheduler and HTTP server, composed here and nowhere
 * else. Resolves once requests are served.
 *
 * @example
 * const payemu = await startEmulator();
 * const res = await fetch(`${payemu.url}/v1/me`, { headers: { Authorization: `Bearer ${payemu.keys.test}` } });
 * await payemu.close();
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const configFile = typeof options.config === 'string' ? path.resolve(options.config) : undefined;
  // The file's version before it is read: an edit from now on is seen by the watch (below).
  const loadedVersion = configFile ? configVersion(configFile) : undefined;
  let config: PayemuConfig = typeof options.config === 'object' ? buildConfig(options.config) : loadConfig(configFile);

  const allowedHosts = (options.allowedHosts ?? []).map((name) => {
    const normalized = normalizeAllowedHost(name);
    if (normalized === undefined) throw new ConfigError(`--allowed-host: not a host name: ${name} (give the name alone, without scheme or port)`);
    return normalized;
  });
  const inMemory = options.inMemory ?? true;
  const dataDir = inMemory ? undefined : path.resolve(options.dataDir ?? '.payemu');
  const dispatcherOptions = webhookOptions(options); // checked before the store creates anything
  const startChaos = chaosOption(options.webhookChaos);
  const journalSize = options.journalSize ?? DEFAULT_JOURNAL_SIZE;
  if (!Number.isSafeInteger(journalSize) || journalSize < 0)
    throw new ConfigError(`--journal-size: not a number of requests (0 or more): ${options.journalSize}`);
  const bus = new Bus();
  const persistence = dataDir
    ? filePersistence(dataDir, { compactAfterBytes: options.compactAfterBytes, onCompaction: (result) => bus.emit('store.compacted', result) })
    : memoryPersistence();
  const store = new Store(COLLECTIONS, persistence);
  const existed = dataDir !== undefined && fs.existsSync(dataDir);
  await store.open();
  // A start that fails before serving closes the store (its lock released) and leaves no new
  // data directory behind; one that existed before is kept as it was.
  const abandon = async () => {
    await store.close();
    if (dataDir && !existed) fs.rmSync(dataDir, { recursive: true, force: true });
  };

  let clock: Clock;
  try {
    clock = restoreClock(store, options);
  } catch (error) {
    await abandon(); // an invalid --clock-start must not leave the data directory locked
    throw error;
  }
  // The config's faults are in force from start (afresh: hits 0, generators at their seeds).
  installConfigFaults(store, config, clock.now());
  const timers = new Timers();
  const scheduler = new Scheduler<App>(store, JOB_KINDS, timers);
  scheduler.rebuild();
  const keyring = new Keyring(config);
  const shutdown = new AbortController();
  if (startChaos) {
    store.transaction((tx) => {
      for (const source of config.sources) {
        for (const mode of ['test', 'live'] as const)
          tx.put(WebhookChaos, { id: scopeKey(source.slug, mode), source: source.slug, mode, settings: startChaos });
      }
    });
  }
  const chaosOf = (source: string, mode: Mode) => store.get(WebhookChaos, scopeKey(source, mode))?.settings;
  const webhooks = new Dispatcher(store, clock, bus, () => config, { ...dispatcherOptions, chaos: chaosOf }, timers);
  keepRecentEvents(store);
  let baseUrl = '';
  const app: App = {
    store,
    clock,
    bus,
    scheduler,
    keyring,
    rateLimiter: new RateLimiter(wallClock.now, options.rateLimit ?? false),
    requestJournal: new RequestJournal(journalSize),
    webhooks,
    timers,
    shutdown: shutdown.signal,
    config: () => config,
    baseUrl: () => baseUrl,
  };
  store.onCommit((_changes, events) => {
    for (const event of events) bus.emit('domain', event);
  });
  // Where each snapshot goes: the scope it names (everything, or one Source and mode).
  const importAs = (document: SnapshotDocument): ImportReport => {
    const named = (document as { scope?: unknown } | null)?.scope;
    if (named === 'all' || named === null || typeof named !== 'object') return importSnapshot(app, COLLECTIONS, document, 'all');
    const { source: slug, mode } = named as { source?: unknown; mode?: unknown };
    const source = config.sources.find((s) => s.slug === slug);
    if (!source) throw new TypeError(`the snapshot is of the Source ${JSON.stringify(slug)}, which the config does not have`);
    return importSnapshot(app, COLLECTIONS, document, { source, mode: mode as Mode });
  };
  if (options.import !== undefined) {
    try {
      importAs(typeof options.import === 'string' ? readSnapshotFile(options.import) : options.import);
    } catch (error) {
      timers.cancelAll();
      await abandon();
      throw error instanceof ConfigError ? error : new ConfigError(`--import: ${(error as Error).message}`);
    }
  }

  let checkHost: HostCheck | undefined; // set once the bound address is known
  const server = createServer(app, [...ROUTES, ...(options.extraRoutes ?? [])], { checkHost: (req) => checkHost?.(req) });
  // Responses not sent yet: on close they end their connection instead of keeping it alive.
  const inFlight = new Set<ServerResponse>();
  function forgetResponse(this: ServerResponse) {
    inFlight.delete(this);
  }
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res);
    res.on('close', forgetResponse); // one shared listener: this sits on every request's path
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
  } catch (error) {
    await abandon();
    throw error;
  }
  const address = server.address() as AddressInfo;
  checkHost = hostCheck(address.address, allowedHosts);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  baseUrl = `http://${host}:${address.port}`;
  // The lock names this URL: a second payemu refused on the directory, and `payemu reset --data`, find it there.
  if (dataDir) recordLockUrl(dataDir, baseUrl);

  // Work that fell due while payemu was stopped runs now, then on a one-second tick.
  scheduler.start(app);
  webhooks.start();
  await scheduler.runDue(clock.now());

  const applyConfig = (next: PayemuConfig) => {
    reloadConfigFaults(store, config, next, clock.now());
    config = next;
    keyring.update(next);
  };
  // The watch starts after start-up (and after the CLI's readiness line): see watchConfig.
  const stopWatching = configFile
    ? watchConfigSoon(configFile, bus, applyConfig, loadedVersion, (fn) => timers.soon(fn))
    : options.configFileIfCreated !== undefined && typeof options.config !== 'object'
      ? await watchConfigCreation(path.resolve(options.configFileIfCreated), bus, applyConfig)
      : undefined;

  const first = config.sources[0]!;
  const scopeOf = (options: ScopeOption = {}): Scope => {
    const source = options.source === undefined ? config.sources[0]! : config.sources.find((s) => s.slug === options.source);
    if (!source) throw new TypeError(`unknown Source: ${options.source}`);
    return { source, mode: options.mode ?? 'test' };
  };
  const chaosScope = (scope: { source?: string; mode?: Mode }) => {
    const source = scope.source ?? config.sources[0]!.slug;
    if (!config.sources.some((s) => s.slug === source)) throw new TypeError(`unknown Source: ${source}`);
    return { source, mode: scope.mode ?? 'test' };
  };
  const scopeOfKey = (key: string | undefined) => {
    const scope = keyring.lookup(key ?? config.sources[0]!.test_key);
    if (!scope) throw new TypeError('requests(): that key opens no Source (give a test or live key of the config)');
    return scope;
  };
  const control = (key = first.test_key) => createClient({ url: baseUrl, key });
  let closing: Promise<void> | undefined;
  return {
    url: baseUrl,
    dashboardUrl: `${baseUrl}/_payemu/dashboard`,
    keys: { test: first.test_key, live: first.live_key },
    webhookSecret: first.webhook_secret,
    sources: config.sources.map(({ slug, name, test_key, live_key, webhook_secret }) => ({ slug, name, test_key, live_key, webhook_secret })),
    // Read at call time: a config reload can change it (the terminal UI's header shows it).
    webhookUrl(slug) {
      const source = config.sources.find((s) => s.slug === slug);
      return source ? webhooks.endpointFor(source) : null;
    },
    clock: {
      now: () => formatTimestamp(clock.now()),
      async advance(by) {
        const ms = advanceSpan(by);
        if (typeof ms === 'string') throw new RangeError(`clock.advance(${JSON.stringify(by)}): the span ${ms}`);
        const report = await advanceClock(app, (now) => now + ms);
        return { now: formatTimestamp(report.now), ran: report.ran };
      },
    },
    outcomes: {
      add: (script, options) => addScript(app, scopeOf(options), script as ScriptBody, clock.now()),
      list: (options) => listScripts(app, scopeOf(options)),
      clear: (options) => clearScripts(app, scopeOf(options)),
    },
    snapshot: {
      export: (options = {}) => exportSnapshot(app, COLLECTIONS, options.all ? 'all' : scopeOf(options)),
      import: (document) => importAs(document),
    },
    trigger: (event, options = {}) => {
      const source = options.source ? config.sources.find((s) => s.slug === options.source) : config.sources[0];
      if (!source) return Promise.reject(new TypeError(`unknown Source: ${options.source}`));
      return runTrigger(app, { source, mode: options.mode ?? 'test' }, event, options.data ?? {});
    },
    events: {
      list(filter = {}) {
        const all = [...store.all(Events)].filter(
          (e) =>
            (!filter.event || e.event === filter.event) &&
            (filter.reference === undefined || e.reference === filter.reference) &&
            (!filter.delivery_status || e.delivery_status === filter.delivery_status) &&
            (!filter.source || e.source === filter.source) &&
            (!filter.mode || e.mode === filter.mode),
        );
        return all.reverse().map(presentEvent);
      },
      get: (id) => {
        const event = store.get(Events, id);
        return event && presentEvent(event);
      },
      resend: (id) => {
        const event = webhooks.resend(id);
        return event && presentEvent(event);
      },
      on: (listener) => bus.on('domain', listener),
    },
    webhookChaos: {
      set(settings, scope = {}) {
        const { source, mode } = chaosScope(scope);
        const checked = checkChaos(settings);
        if ('field' in checked) throw new RangeError(`webhookChaos.set: ${checked.field}: ${checked.message}`);
        store.transaction((tx) => tx.put(WebhookChaos, { id: scopeKey(source, mode), source, mode, settings: checked.settings }));
        return { ...checked.settings };
      },
      get: (scope = {}) => {
        const { source, mode } = chaosScope(scope);
        return { ...chaosOf(source, mode) };
      },
      clear(scope = {}) {
        const { source, mode } = chaosScope(scope);
        if (chaosOf(source, mode)) store.transaction((tx) => tx.delete(WebhookChaos, scopeKey(source, mode)));
      },
    },
    requests: Object.assign(
      (filter: RequestsFilter = {}) => {
        const scope = scopeOfKey(filter.key);
        let parsed: ReturnType<typeof parseRequestFilter>;
        try {
          parsed = parseRequestFilter(filter);
        } catch (error) {
          throw error instanceof HttpError ? new RangeError(`requests(): ${error.message}`) : error;
        }
        // A copy: the journal keeps its views, which a test may change in place.
        return structuredClone(app.requestJournal.list(scope.source.slug, scope.mode, parsed));
      },
      {
        clear: (clearOptions: { key?: string } = {}) => {
          const scope = scopeOfKey(clearOptions.key);
          return app.requestJournal.clear({ source: scope.source.slug, mode: scope.mode });
        },
      },
    ),
    faults: {
      add: (fault, options = {}) => control(options.key).addFault(fault),
      list: (options = {}) => control(options.key).faults(),
      remove: (id, options = {}) => control(options.key).removeFault(id),
      clear: async (options = {}) => (await control(options.key).clearFaults()).removed,
    },
    bus,
    dataDir,
    idle: () => timers.idle(),
    close: () =>
      (closing ??= (async () => {
        let exportError: unknown;
        if (options.exportOnExit !== undefined) {
          try {
            writeSnapshotFile(options.exportOnExit, exportSnapshot(app, COLLECTIONS, 'all'));
          } catch (error) {
            exportError = error; // payemu still stops; the caller hears why the file is missing
          }
        }
        scheduler.stop();
        shutdown.abort();
        await stopWatching?.();
        // In-flight requests finish, then their connections close (rather than idling for
        // the keep-alive timeout); idle keep-alive connections are closed now.
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
          server.closeIdleConnections();
        });
        await webhooks.close();
        timers.cancelAll();
        await store.close();
        if (exportError !== undefined) throw new Error(`--export-on-exit: ${(exportError as Error).message}`);
      })()),
  };
}

function webhookOptions(options: EmulatorOptions): DispatcherOptions {
  const backoff = options.webhookBackoff;
  const timeout =
    typeof options.webhookTimeout === 'number'
      ? options.webhookTimeout
      : options.webhookTimeout === undefined
        ? DEFAULT_TIMEOUT_MS
        : parseDuration(options.webhookTimeout);
  if (timeout === undefined || timeout <= 0) throw new ConfigError(`--webhook-timeout: not a duration: ${options.webhookTimeout}`);
  let backoffMs = DEFAULT_BACKOFF_MS;
  try {
    if (typeof backoff === 'string') backoffMs = parseBackoff(backoff);
    else if (backoff) backoffMs = backoff;
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  if (options.webhookUrl !== undefined && !isSafeUrl(options.webhookUrl))
    throw new ConfigError(`--webhook-url must be an absolute http:// or https:// URL, not ${options.webhookUrl}`);
  return { webhookUrl: options.webhookUrl, backoffMs, timeoutMs: timeout, strictUrls: options.strictWebhookUrls === true };
}

/** `webhookChaos` checked: the settings for every Source, or a ConfigError naming what is wrong. */
function chaosOption(value: WebhookChaosSettings | string | undefined): WebhookChaosSettings | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    try {
      return parseChaosList(value);
    } catch (error) {
      throw new ConfigError(`--webhook-chaos: ${(error as Error).message}`);
    }
  }
  const checked = checkChaos(value);
  if ('field' in checked) throw new ConfigError(`--webhook-chaos: ${checked.field}: ${checked.message}`);
  return checked.settings;
}

/** A saved clock wins (a restart continues where it stopped); the options shape a new one. */
function restoreClock(store: Store, options: EmulatorOptions): Clock {
  let start: number | undefined;
  if (options.clockStart !== undefined) {
    start = typeof options.clockStart === 'number' ? options.clockStart : parseTimestamp(options.clockStart);
    if (start === undefined) throw new ConfigError(`--clock-start: not an ISO 8601 timestamp: ${options.clockStart}`);
  }
  const clock = createClock({ start, frozen: options.freezeClock });
  const saved = store.get(Meta, 'clock') as Extract<MetaRecord, { id: 'clock' }> | undefined;
  if (saved) {
    const wanted = clock.now();
    clock.restore(saved.clock);
    if (start !== undefined) clock.moveTo(wanted);
    // Frozen or not follows this run's flag, from where the saved clock stands.
    if (options.freezeClock && !clock.frozen()) clock.restore({ offsetMs: clock.offsetMs(), frozenAt: clock.now() });
    if (!options.freezeClock && clock.frozen()) clock.restore({ offsetMs: clock.offsetMs(), frozenAt: null });
  }
  store.transaction((tx) => tx.put(Meta, { id: 'clock', clock: clock.state() }));
  return clock;
}

/** A snapshot file as written by `payemu export`: JSON, else an error saying what the file is not. */
function readSnapshotFile(file: string): SnapshotDocument {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`--import: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return JSON.parse(text) as SnapshotDocument;
  } catch (error) {
    throw new ConfigError(`--import: ${file} is not JSON: ${(error as Error).message}`);
  }
}

/** Written whole to a temporary file, then renamed over FILE: a crash never leaves half a snapshot. */
export function writeSnapshotFile(file: string, snapshot: SnapshotDocument): void {
  const target = path.resolve(file);
  const temporary = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(snapshot));
  fs.renameSync(temporary, target);
}
