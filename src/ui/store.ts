import type { Bus } from '../bus/bus.js';
import type { TimerHandle } from '../clock/timers.js';
import { clockDateTime } from './format.js';
import type { UiTimers } from './host.js';
import { initialState, reduce, type Action, type UiState } from './state.js';

export interface UiStore {
  getState(): UiState;
  /** Applies a key press's action and redraws at once. */
  dispatch(action: Action): void;
  /** For React's useSyncExternalStore. */
  subscribe(listener: () => void): () => void;
  /** Stops listening to the bus. */
  close(): void;
}

export interface UiStoreOptions {
  /** Source slugs, in config order. */
  sources: readonly string[];
  /** Each Source's webhook endpoint now (read again after a config reload). */
  webhookUrl(slug: string): string | null;
  /**
   * Bus traffic redraws at most once per this many milliseconds (default 50): under load a
   * redraw per request would keep React busy for nothing a person could read. 0: at once.
   */
  batchMs?: number;
  timers: UiTimers;
  /** The events the trigger menu offers (UiHost.eventNames). */
  eventNames: readonly string[];
}

/**
 * The UI's state, fed by the bus only: the same stream the plain and --json loggers read. The
 * UI never reaches into the server.
 */
export function createUiStore(bus: Bus, options: UiStoreOptions): UiStore {
  const urls = () => Object.fromEntries(options.sources.map((slug) => [slug, options.webhookUrl(slug)]));
  let state = initialState(urls(), options.eventNames);
  const listeners = new Set<() => void>();
  let timer: TimerHandle | undefined;

  const notify = () => {
    timer?.cancel();
    timer = undefined;
    for (const listener of listeners) listener();
  };
  const fromBus = (action: Action) => {
    state = reduce(state, action);
    if (options.batchMs === 0) notify();
    else timer ??= options.timers.after(options.batchMs ?? 50, notify);
  };

  const off = [
    bus.on('request', (request) => fromBus({ type: 'request', request })),
    bus.on('domain', (event) => fromBus({ type: 'domain', event })),
    bus.on('webhook.attempt', ({ event, attempt, namespace }) =>
      fromBus({ type: 'attempt', event, attempt, ...(namespace === undefined ? {} : { namespace }) }),
    ),
    // The header's clock is the default namespace's: a named one's advance says whose it was.
    bus.on('clock.advanced', (e) =>
      fromBus({ type: 'notice', text: `clock${e.namespace === undefined ? '' : ` of ~${e.namespace}`} advanced to ${clockDateTime(e.now)}${ranText(e.ran)}` }),
    ),
    bus.on('config.reloaded', (e) => {
      fromBus({ type: 'targets', urls: urls() });
      fromBus({ type: 'notice', text: `config reloaded from ${e.path}` });
    }),
    // The header shows the default namespace's destinations: a named one's are its own.
    bus.on('webhook.destination', (e) => {
      if (e.namespace === undefined) fromBus({ type: 'targets', urls: urls() });
    }),
    bus.on('config.rejected', (e) => fromBus({ type: 'notice', tone: 'error', text: `config edit rejected, the last valid config stays: ${e.error}` })),
    bus.on('server.error', (e) => fromBus({ type: 'notice', tone: 'error', text: `error in ${e.method} ${e.path}: ${e.error}` })),
    bus.on('store.compacted', (e) => {
      if (!e.ok) fromBus({ type: 'notice', tone: 'error', text: `store compaction failed: ${e.error}` });
    }),
  ];

  return {
    getState: () => state,
    dispatch(action) {
      state = reduce(state, action);
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      for (const unsubscribe of off) unsubscribe();
      timer?.cancel();
      listeners.clear();
    },
  };
}

function ranText(ran: Record<string, number>): string {
  const parts = Object.entries(ran)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${kind}`);
  return parts.length ? ` (ran ${parts.join(', ')})` : '';
}
