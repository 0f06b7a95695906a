import { render } from 'ink-testing-library';
import { createElement } from 'react';
import type { Test } from 'tap';
import { Bus } from '../bus/bus.js';
import { EVENT_NAMES } from '../catalogue.js';
import { Timers } from '../clock/timers.js';
import type { Attempt, EventRecord } from '../webhooks/records.js';
import { App, type AppProps } from './app.js';
import type { Control } from './control.js';
import { driver } from './driver.test-support.js';
import { createUiStore } from './store.js';

// The terminal UI's App rendered for component tests (app.test.ts, app-keys.test.ts): a real Bus
// feeds the store, keys go to a fake stdin, and the keys' actions go to a fake control plane that
// records them.

export const AT = Date.UTC(2026, 10, 21, 10, 0, 5);
export const KEYS = { down: '\x1b[B', up: '\x1b[A', pageUp: '\x1b[5~', pageDown: '\x1b[6~', enter: '\r', escape: '\x1b', ctrlC: '\x03' };
const SOURCES = [
  { slug: 'acme', name: 'Acme Store', test_key: 'sk_test_payemu_acme', live_key: 'sk_live_payemu_acme', webhook_secret: 'whsec_payemu_acme' },
  { slug: 'globex', name: 'Globex', test_key: 'sk_test_payemu_globex', live_key: 'sk_live_payemu_globex', webhook_secret: 'whsec_payemu_globex' },
];
export const HOOK = 'http://127.0.0.1:3000/webhooks';

/**
 * The App at 100×30 (or `size`), its virtual clock on the real day unless `offsetMs` says
 * otherwise (`setClock` moves it, as an advance does).
 */
export function setup(t: Test, options: { failing?: boolean; offsetMs?: number; size?: { columns: number; rows: number } } = {}) {
  const bus = new Bus();
  const urls: Record<string, string | null> = { acme: HOOK, globex: null };
  const timers = new Timers();
  const store = createUiStore(bus, { sources: ['acme', 'globex'], webhookUrl: (slug) => urls[slug] ?? null, batchMs: 0, timers, eventNames: EVENT_NAMES });
  const calls: string[] = [];
  const answer = <T extends string | undefined>(call: string, text: T): Promise<T> => {
    calls.push(call);
    return options.failing ? Promise.reject(new Error(`${call} refused`)) : Promise.resolve(text);
  };
  const control: Control = {
    resend: (e) => answer(`resend ${e.id} ${e.source}/${e.mode}`, `resent ${e.name}`),
    advanceClock: () => answer('advance', undefined),
    trigger: (name) => answer(`trigger ${name}`, `triggered ${name}`),
  };
  let quits = 0;
  let clock = { now: AT, offsetMs: options.offsetMs ?? 0, frozen: false };
  const props: AppProps = {
    store,
    control,
    url: 'http://127.0.0.1:4242',
    sources: SOURCES,
    clock: () => clock,
    onQuit: () => quits++,
    rows: options.size?.rows ?? 30,
    columns: options.size?.columns ?? 100,
    tickMs: 0,
    timers,
  };
  const ui = render(createElement(App, props));
  t.teardown(() => {
    ui.unmount();
    store.close();
    timers.cancelAll();
  });
  const frame = () => ui.lastFrame() ?? '';
  const { until, press } = driver(ui, frame);
  const setClock = (now: number, offsetMs: number) => {
    clock = { now, offsetMs, frozen: false };
  };
  return { bus, urls, store, calls, frame, until, press, setClock, quits: () => quits };
}

export function raise(
  bus: Bus,
  id: string,
  name = 'payment.completed',
  data: Record<string, unknown> = { reference: `order-${id}`, amount: 25.5, currency: 'USD' },
  options: { at?: number; source?: string } = {},
) {
  bus.emit('domain', { id, name, source: options.source ?? 'acme', mode: 'test', data, at: options.at ?? AT });
}

export function attempted(bus: Bus, id: string, status: EventRecord['delivery_status'], attempts: Attempt[]) {
  const record: EventRecord = {
    id,
    source: 'acme',
    mode: 'test',
    event: 'payment.completed',
    data: { reference: `order-${id}`, amount: 25.5, currency: 'USD' },
    created_at: AT,
    delivery_status: status,
    attempts,
    cycle_attempts: attempts.length,
    next_attempt_at: null,
  };
  bus.emit('webhook.attempt', { event: record, attempt: attempts[attempts.length - 1] ?? null });
}

export const ok = (body = '{"received":true}'): Attempt => ({ status: 200, response_body: body, duration_ms: 12, error: null, at: AT, url: HOOK });
export const refused = (): Attempt => ({
  status: null,
  response_body: null,
  duration_ms: 1,
  error: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:3000',
  at: AT,
  url: HOOK,
});
