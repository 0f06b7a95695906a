import type { App, Namespaces } from '../app.js';
import { Bus } from '../bus/bus.js';
import { COLLECTIONS, JOB_KINDS } from '../catalogue.js';
import { wallClock, type Clock } from '../clock/clock.js';
import { Scheduler } from '../clock/scheduler.js';
import type { Timers } from '../clock/timers.js';
import type { PayemuConfig } from '../config/types.js';
import type { Keyring } from '../http/auth.js';
import { installConfigFaults } from '../http/faults.js';
import type { Inject } from '../http/inject.js';
import { RateLimiter } from '../http/rate-limit.js';
import { RequestJournal } from '../http/request-journal.js';
import type { Persistence } from '../store/persistence.js';
import { Store } from '../store/store.js';
import type { WebhookChaosSettings } from '../webhooks/chaos.js';
import { Dispatcher, type DispatcherOptions } from '../webhooks/dispatcher.js';
import { keepRecentEvents } from '../webhooks/retention.js';
import { chaosSettingsOf, storeChaosForAll } from './webhook-chaos.js';

/** What one core is built from: its own persistence, and the pieces the process shares (timers, keyring, config). */
export interface CoreOptions {
  persistence: Persistence;
  /** The clock, once the store is open (a saved one wins: see restoreClock). */
  clockFrom(store: Store): Clock;
  /** Read at call time: a config reload replaces it. */
  config(): PayemuConfig;
  keyring: Keyring;
  timers: Timers;
  /** The process's bus (the library's `emulator.bus`): the core's own bus forwards every event to it, tagged with the namespace. */
  bus: Bus;
  /** The namespace this core is the state of: `undefined` for the default one. */
  namespace?: string;
  namespaces: Namespaces;
  dispatcherOptions: DispatcherOptions;
  /** `--webhook-chaos`: stored for every Source and mode as the core starts. */
  startChaos: WebhookChaosSettings | undefined;
  rateLimit: boolean;
  journalSize: number;
  baseUrl(): string;
  inject: Inject;
  /** Called when the core gives up before it is built (its store closed again): a new data directory is removed. */
  abandoned?(): void;
}

/** One emulator core: its store, clock and engines, and the `App` routes and jobs are handed. */
export interface Core {
  app: App;
  store: Store;
  scheduler: Scheduler<App>;
  webhooks: Dispatcher;
  /** Work that fell due while the core was stopped runs now, then on a one-second tick; deliveries start. */
  start(): Promise<void>;
  /** The first step of a close: the tick stops, and what waits on the core (event streams) ends. */
  stop(): void;
  /**
   * Ends deliveries and releases the core's hold on the shared timers, then closes the store.
   * `beforeStore` runs in between (the process cancels its remaining timers there).
   */
  close(beforeStore?: () => void): Promise<void>;
}

/**
 * Builds one core, as the composition root builds the default one: store, clock, the config's
 * faults, scheduler, dispatcher, event retention, the App, and each commit's events on the bus.
 */
export async function createCore(options: CoreOptions): Promise<Core> {
  const { timers, namespace } = options;
  // A bus of its own: the core's dispatcher and event streams must hear its events only.
  const bus = new Bus();
  bus.forward(options.bus, namespace);
  const store = new Store(COLLECTIONS, options.persistence);
  await store.open();
  let clock: Clock;
  try {
    clock = options.clockFrom(store);
  } catch (error) {
    await store.close(); // an invalid --clock-start must not leave the data directory locked
    options.abandoned?.();
    throw error;
  }
  // The config's faults are in force from start (afresh: hits 0, generators at their seeds).
  installConfigFaults(store, options.config(), clock.now());
  const scheduler = new Scheduler<App>(store, JOB_KINDS, timers);
  scheduler.rebuild();
  const shutdown = new AbortController();
  if (options.startChaos) storeChaosForAll(store, options.config(), options.startChaos);
  const webhooks = new Dispatcher(store, clock, bus, options.config, { ...options.dispatcherOptions, namespace, chaos: chaosSettingsOf(store) }, timers);
  keepRecentEvents(store);
  const app: App = {
    store,
    clock,
    bus,
    scheduler,
    keyring: options.keyring,
    rateLimiter: new RateLimiter(wallClock.now, options.rateLimit),
    requestJournal: new RequestJournal(options.journalSize),
    webhooks,
    timers,
    shutdown: shutdown.signal,
    config: options.config,
    baseUrl: namespace === undefined ? options.baseUrl : () => `${options.baseUrl()}/~${namespace}`,
    collections: COLLECTIONS,
    inject: options.inject,
    namespace,
    namespaces: options.namespaces,
  };
  store.onCommit((_changes, events) => {
    for (const event of events) bus.emit('domain', event);
  });
  return {
    app,
    store,
    scheduler,
    webhooks,
    async start() {
      scheduler.start(app);
      webhooks.start();
      await scheduler.runDue(clock.now());
    },
    stop() {
      scheduler.stop();
      shutdown.abort();
    },
    async close(beforeStore) {
      await webhooks.close();
      scheduler.dispose();
      beforeStore?.();
      await store.close();
    },
  };
}
