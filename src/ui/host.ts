import type { Bus } from '../bus/bus.js';
import { Timers } from '../clock/timers.js';

/**
 * The real-time waits of the outputs (a redraw batch, the header's clock tick, a log flush): a
 * `Timers` of src/clock/, so that no output calls setTimeout or setInterval itself and a stop
 * cancels them all at once.
 */
export type UiTimers = Pick<Timers, 'after' | 'every' | 'soon'>;

/**
 * What the loggers and the terminal UI read of a running payemu: the object `startEmulator`
 * returns, with the catalogue's event names and timers of their own (`uiHost`). The UI depends on
 * this shape, not on the emulator, so it reaches nothing but the bus and these few facts.
 */
export interface UiHost {
  url: string;
  dataDir: string | undefined;
  sources: { slug: string; name: string; test_key: string; live_key: string; webhook_secret: string }[];
  clock: { now(): string };
  bus: Bus;
  /** Where a Source's webhooks go now, or null. */
  webhookUrl(slug: string): string | null;
  /** A Source and mode's webhook chaos (`{}` when off): the banner says when it is on. */
  webhookChaos?: { get(scope: { source: string; mode: 'test' | 'live' }): object };
  timers: UiTimers;
  /** The events the trigger menu offers: the catalogue's, in its order (the UI knows no resource). */
  eventNames: readonly string[];
}

/** The host the outputs of one run read: the emulator's public face, the catalogue's event names, and real-time timers of their own. */
export function uiHost(emulator: Omit<UiHost, 'timers' | 'eventNames'>, eventNames: readonly string[], timers: UiTimers = new Timers()): UiHost {
  return { ...emulator, eventNames, timers };
}
