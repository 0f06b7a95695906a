import type { Bus } from '../bus/bus.js';

/**
 * What the loggers and the terminal UI read of a running payemu. The object `startEmulator`
 * returns is one; the UI depends on this shape, not on the emulator, so it reaches nothing but
 * the bus and these few facts.
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
}
