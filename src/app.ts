import type { Bus } from './bus/bus.js';
import type { Clock } from './clock/clock.js';
import type { Scheduler } from './clock/scheduler.js';
import type { Timers } from './clock/timers.js';
import type { PayemuConfig } from './config/types.js';
import type { Keyring } from './http/auth.js';
import type { RateLimiter } from './http/rate-limit.js';
import type { RequestJournal } from './http/request-journal.js';
import type { Store } from './store/store.js';
import type { Dispatcher } from './webhooks/dispatcher.js';

/** Everything a route or a job may use, passed in (never imported as a singleton). */
export interface App {
  store: Store;
  clock: Clock;
  bus: Bus;
  scheduler: Scheduler<App>;
  keyring: Keyring;
  rateLimiter: RateLimiter;
  /** The last `/v1` requests of each Source and mode (`GET /_payemu/requests`). */
  requestJournal: RequestJournal;
  config(): PayemuConfig;
  webhooks: Dispatcher;
  /** Every real-time wait (timers, yields) and the work in flight, for `idle()`. */
  timers: Timers;
  /** Aborted when payemu stops: long-lived answers (event streams) end then. */
  shutdown: AbortSignal;
  /** `http://HOST:PORT`, known once the server listens. */
  baseUrl(): string;
}
