import type { Bus } from '../bus/bus.js';
import type { Clock } from '../clock/clock.js';
import type { Timers } from '../clock/timers.js';
import type { Store } from '../store/store.js';
import type { Keyring } from './auth.js';
import type { RateLimiter } from './rate-limit.js';
import type { RequestJournal } from './request-journal.js';

/** What the HTTP layer itself reads of the app: the server, auth, rate limit, request journal, list routes. */
export interface HttpApp {
  store: Store;
  clock: Clock;
  bus: Bus;
  keyring: Keyring;
  rateLimiter: RateLimiter;
  /** The last `/v1` requests of each Source and mode (`GET /_payemu/requests`). */
  requestJournal: RequestJournal;
  /** Every real-time wait (timers, yields) and the work in flight, for `idle()`. */
  timers: Timers;
  /** Aborted when payemu stops: long-lived answers (event streams) end then. */
  shutdown: AbortSignal;
  /**
   * Where payemu's pages and links of this namespace are: `http://HOST:PORT`, known once the
   * server listens, and `/~NAME` after it in a named namespace.
   */
  baseUrl(): string;
  /** The namespace this app is the state of: `undefined` for the default one. */
  namespace: string | undefined;
  /** The named namespaces (src/emulator/namespaces.ts), shared by every namespace's app. */
  namespaces: NamespaceResolver;
}

/** The named namespaces of one payemu, as the server and the control operations reach them. */
export interface NamespaceResolver {
  /** The app of a named namespace, made on its first use (which may be refused: over the limit). */
  resolve(name: string): RouteApp | Promise<RouteApp>;
  /** The app of a named namespace that exists; never makes one (hosted pages, the dashboard). */
  find(name: string): RouteApp | undefined;
  /** The default namespace's app: its clock is where a new namespace's starts. */
  root(): RouteApp;
  /** The named ones, by name, with when each came into being (virtual time of its own clock). */
  list(): readonly { name: string; createdAt: number; app: RouteApp }[];
  /** Drops one, its pending deliveries included, and removes its data; false when there is none of that name. */
  delete(name: string): Promise<boolean>;
}

/**
 * What every route is handed as `ctx.app`: the composition root widens it to its whole `App`
 * (src/app.ts merges `App` into it), so a route reads the scheduler, the dispatcher and the
 * config while src/http/ never imports the root.
 */
export interface RouteApp extends HttpApp {}
