import { randomInt } from 'node:crypto';
import { parseDuration } from '../clock/duration.js';
import type { Mode } from '../config/types.js';
import { byScope, scopeKey } from '../lib/scope-key.js';
import { collection } from '../store/collection.js';
import { CHAOS_KINDS, type ChaosKind } from '../schemas/attempt-chaos.js';
import { webhookChaosRecordSchema } from './record-schema.js';

/**
 * Webhook chaos (docs/chaos.md): what a Source and mode's first delivery attempts go through.
 * Probabilities are 0..1; `delay` is a duration ("5s"): each first attempt waits a random time
 * up to it. The same `seed` gives the same pattern over the same events.
 */
export interface WebhookChaosSettings {
  duplicate?: number;
  delay?: string;
  stale_timestamp?: number;
  bad_signature?: number;
  seed?: number;
}

// What an attempt carried, as its log entry says (`chaos`): listed with the wire's schemas.
export { CHAOS_KINDS, type ChaosKind };

/** The settings of one Source and mode, stored so that they survive a restart. */
export interface WebhookChaosRecord {
  /** `source:mode` */
  id: string;
  source: string;
  mode: Mode;
  settings: WebhookChaosSettings;
}

export const WebhookChaos = collection<WebhookChaosRecord>('webhook_chaos', { scope: byScope }, undefined, webhookChaosRecordSchema);

/** How the dispatcher learns a scope's settings (the composition root reads them from the store). */
export type ChaosSettingsOf = (source: string, mode: Mode) => WebhookChaosSettings | undefined;

/** How old the `t=` of a stale-timestamp attempt is: twice the usual tolerance of five minutes. */
export const STALE_SECONDS = 600;

/** The secret a bad-signature attempt is signed with: never a Source's. */
export const WRONG_SECRET = 'whsec_payemu_chaos_not_your_secret';

const PROBABILITIES = ['duplicate', 'stale_timestamp', 'bad_signature'] as const;
const FIELDS = [...PROBABILITIES, 'delay', 'seed'] as const;

/**
 * Checks settings from any source (the control plane's body, `--webhook-chaos`, the library):
 * the settings, or the first field that is wrong with a message naming it.
 */
export function checkChaos(input: unknown): { settings: WebhookChaosSettings } | { field: string; message: string } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { field: '', message: 'Webhook chaos must be an object.' };
  const given = input as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(FIELDS as readonly string[]).includes(key)) return { field: key, message: `The ${key} field is not a webhook chaos setting (${FIELDS.join(', ')}).` };
  }
  const settings: WebhookChaosSettings = {};
  for (const key of PROBABILITIES) {
    const value = given[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1)
      return { field: key, message: `The ${key} field must be a probability from 0 to 1.` };
    settings[key] = value;
  }
  if (given.delay !== undefined) {
    const ms = typeof given.delay === 'string' ? parseDuration(given.delay) : undefined;
    if (ms === undefined) return { field: 'delay', message: 'The delay field must be a duration such as "5s", "250ms" or "1m".' };
    if (ms > 3_600_000) return { field: 'delay', message: 'The delay field must not be more than 1h.' };
    settings.delay = given.delay as string;
  }
  if (given.seed !== undefined) {
    const seed = given.seed;
    if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0 || seed > 0xffffffff)
      return { field: 'seed', message: 'The seed field must be a whole number from 0 to 4294967295.' };
    settings.seed = seed;
  }
  return { settings };
}

/**
 * `duplicate=0.2,delay=5s,stale_timestamp=0.1,bad_signature=0.1,seed=7` (`--webhook-chaos`, `payemu
 * webhook-chaos set`) as settings; throws a RangeError naming the item that is wrong.
 */
export function parseChaosList(text: string): WebhookChaosSettings {
  const given: Record<string, unknown> = {};
  for (const item of text.split(',').map((s) => s.trim())) {
    if (item === '') continue;
    const eq = item.indexOf('=');
    if (eq <= 0) throw new RangeError(`${item}: expected name=value, e.g. duplicate=0.2 or delay=5s`);
    const key = item.slice(0, eq).trim();
    const raw = item.slice(eq + 1).trim();
    given[key] = key === 'delay' ? raw : raw !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
  }
  const checked = checkChaos(given);
  if ('field' in checked) throw new RangeError(`${checked.field}: ${checked.message}`);
  return checked.settings;
}

/** What a first attempt goes through. */
export interface ChaosPlan {
  /** Real milliseconds the attempt waits before it goes out (0: none). */
  delayMs: number;
  signature: 'stale_timestamp' | 'bad_signature' | null;
  /** A second copy follows the attempt. */
  duplicate: boolean;
  /** The attempt's log label: the signature's chaos, else `delayed`, else null. */
  label: ChaosKind | null;
}

/** A small seeded generator (mulberry32): the same seed, the same numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Draws each first attempt's chaos, in event order, from one generator per Source and mode,
 * made from the settings' seed (a random one without). The generator starts again when the
 * settings change (a PUT) and when payemu starts. Every first attempt draws four numbers,
 * whatever is set, so the same seed gives the same pattern for the same events.
 */
export class ChaosPlanner {
  private readonly generators = new Map<string, { settings: WebhookChaosSettings; next: () => number }>();

  constructor(private readonly settingsOf: ChaosSettingsOf) {}

  plan(source: string, mode: Mode): ChaosPlan | undefined {
    const settings = this.settingsOf(source, mode);
    const key = scopeKey(source, mode);
    if (!settings || Object.keys(settings).every((k) => k === 'seed')) {
      this.generators.delete(key);
      return undefined;
    }
    let generator = this.generators.get(key);
    if (generator?.settings !== settings) {
      generator = { settings, next: seededRandom(settings.seed ?? randomInt(0, 0xffffffff)) };
      this.generators.set(key, generator);
    }
    const [dup, delay, stale, bad] = [generator.next(), generator.next(), generator.next(), generator.next()];
    const maxDelay = settings.delay === undefined ? 0 : (parseDuration(settings.delay) ?? 0);
    const signature = bad < (settings.bad_signature ?? 0) ? 'bad_signature' : stale < (settings.stale_timestamp ?? 0) ? 'stale_timestamp' : null;
    const plan: ChaosPlan = {
      delayMs: Math.round(delay * maxDelay),
      signature,
      duplicate: dup < (settings.duplicate ?? 0),
      label: signature ?? (maxDelay > 0 ? 'delayed' : null),
    };
    return plan.label === null && !plan.duplicate ? undefined : plan;
  }
}
