import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_CONFIG_FILE } from '../../config/load.js';
import type { Mode } from '../../config/types.js';

/**
 * Every `payemu trigger <event>` is a fixture file in fixtures/triggers/: an ordered list of API
 * calls, later ones referring to earlier answers (as the Stripe CLI's triggers are). Data, not
 * code: adding a trigger is adding a file, and test/triggers.test.ts checks that every event has
 * a fixture and every fixture an event. Card numbers come from `{{cards.*}}` (see run.ts), so
 * one fixture serves both modes.
 */
export type TriggerStep = ApiStep | EffectStep;

interface StepBase {
  id: string;
  /** The step runs only with a key of this mode (absent: always). */
  mode?: Mode;
}

export interface ApiStep extends StepBase {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
}

/**
 * A change no API call can make, done on the store directly. One exists: live mode has no card
 * whose later off-session charges decline (the test card 4000 0000 0000 0341 does that, and
 * live mode refuses test cards), so the live-mode triggers of recurring failures mark the card
 * they saved that way.
 */
export interface EffectStep extends StepBase {
  effect: 'card_declines_off_session';
  /** The saved card (`pm_...`), usually `{{saved.payment.payment_method}}`. */
  payment_method: string;
}

export interface TriggerFixture {
  /** The event it makes happen (test/triggers.test.ts checks that each event of the catalogue has one). */
  event: string;
  description: string;
  steps: TriggerStep[];
}

// Beside the embedded default config: this module sits at another depth in dist/ and in the CLI bundle.
export const TRIGGERS_DIR = path.join(path.dirname(DEFAULT_CONFIG_FILE), 'triggers');

let cache: { fixtures: Map<string, TriggerFixture>; defaults: Record<string, unknown> } | undefined;

/** The fixtures by event name, read once. */
export function loadFixtures(dir = TRIGGERS_DIR): { fixtures: Map<string, TriggerFixture>; defaults: Record<string, unknown> } {
  if (cache && dir === TRIGGERS_DIR) return cache;
  const fixtures = new Map<string, TriggerFixture>();
  let defaults: Record<string, unknown> = {};
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const doc = JSON.parse(fs.readFileSync(`${dir}/${file}`, 'utf8'));
    if (file === '_defaults.json') {
      defaults = doc.defaults;
      continue;
    }
    if (`${doc.event}.json` !== file) throw new Error(`trigger fixture ${file} is for event ${doc.event}`);
    fixtures.set(doc.event, doc as TriggerFixture);
  }
  const loaded = { fixtures, defaults };
  if (dir === TRIGGERS_DIR) cache = loaded;
  return loaded;
}
