import type { Scheduler } from './clock/scheduler.js';
import type { PayemuConfig } from './config/types.js';
import type { Collection, StoredRecord } from './store/collection.js';
import type { HttpApp, NamespaceResolver } from './http/http-app.js';
import type { Inject } from './http/inject.js';
import type { Dispatcher } from './webhooks/dispatcher.js';

/**
 * Everything a route or a job may use, passed in (never imported as a singleton): the pieces
 * the HTTP layer reads itself (`HttpApp`: store, clock, bus, keyring, rate limiter, request
 * journal, timers, shutdown, base URL) and the engines the routes and jobs drive.
 */
export interface App extends HttpApp {
  scheduler: Scheduler<App>;
  config(): PayemuConfig;
  webhooks: Dispatcher;
  /** The catalogue's collections, which a snapshot walks (src/catalogue.ts hands them in). */
  collections: readonly Collection<StoredRecord>[];
  /** A request answered in process by payemu's own server, through its whole pipeline (a trigger's steps): never HTTP to itself. */
  inject: Inject;
}

// A route's `ctx.app` is the whole App: src/http/ names only `RouteApp` (its own pieces), and
// the root widens it here, so that http never imports this file (no folder circle).
declare module './http/http-app.js' {
  interface RouteApp extends App {}
}

/** The named namespaces of this payemu (src/emulator/namespaces.ts). */
export type Namespaces = NamespaceResolver;
