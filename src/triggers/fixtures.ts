import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EVENT_NAMES, type EventName } from '../bus/events.js';

/**
 * Every `payemu trigger <event>` is a fixture file in fixtures/triggers/: an ordered list of API
 * calls, later ones referring to earlier answers (as the Stripe CLI's triggers are). Data, not
 * code: adding a trigger is adding a file, and test/triggers.test.ts checks that every event has
 * a fixture and every fixture an event.
 */
export interface TriggerStep {
  id: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
}

export interface TriggerFixture {
  event: EventName;
  description: string;
  steps: TriggerStep[];
}

export const TRIGGERS_DIR = fileURLToPath(new URL('../../fixtures/triggers/', import.meta.url));

let cache: { fixtures: Map<string, TriggerFixture>; defaults: Record<string, unknown> } | undefined;

/** The fixtures by event name, read once. */
export function loadFixtures(dir = TRIGGERS_DIR): { fixtures: Map<string, TriggerFixture>; defaults: Record<string, unknown> } {
  if (cache && dir === TRIGGERS_DIR) return cache;
  const fixtures = new Map<string, TriggerFixture>();
  let defaults: Record<string, unknown> = {};
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const doc = JSON.parse(fs.readFileSync(`${dir}/${file}`, 'utf8'));
    if (file === '_defaults.json') {
      defaults = doc.defaults;
      continue;
    }
    if (`${doc.event}.json` !== file) throw new Error(`trigger fixture ${file} is for event ${doc.event}`);
    if (!(EVENT_NAMES as readonly string[]).includes(doc.event)) throw new Error(`trigger fixture ${file}: ${doc.event} is not an event`);
    fixtures.set(doc.event, doc as TriggerFixture);
  }
  const loaded = { fixtures, defaults };
  if (dir === TRIGGERS_DIR) cache = loaded;
  return loaded;
}
