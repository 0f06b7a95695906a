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
  /** `http://HOST:PORT`, known once the server listens. */
  baseUrl(): string;
}

/**
 * What every route is handed as `ctx.app`: the composition root widens it to its whole `App`
 * (src/app.ts merges `App` into it), so a route reads the scheduler, the dispatcher and the
 * config while src/http/ never imports the root.
 */
export interface RouteApp extends HttpApp {}
