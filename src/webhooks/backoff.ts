import { parseDuration } from '../clock/duration.js';

export const DEFAULT_BACKOFF_MS = [1_000, 5_000, 25_000];
export const DEFAULT_TIMEOUT_MS = 10_000;

/** `--webhook-backoff 1s,5s,25s` (or `0,0,0`): the waits before retries 1, 2 and 3. */
export function parseBackoff(text: string): number[] {
  const parts = text.split(',').map((p) => p.trim());
  const waits = parts.map((p) => parseDuration(/^\d+(\.\d+)?$/.test(p) ? Number(p) : p));
  if (parts.length !== 3 || waits.some((w) => w === undefined)) {
    throw new Error(`--webhook-backoff takes three durations separated by commas, like 1s,5s,25s (got "${text}")`);
  }
  return waits as number[];
}
