import type { TriggerFixture } from './fixtures.js';

/** The order keys are listed in (the fixtures' own variables, then the cards). */
const ORDER = ['amount', 'new_amount', 'currency', 'reference', 'customer_email', 'customer_name', 'description', 'metadata', 'cards'];

/**
 * The data keys an event's fixture uses: the variables its placeholders read (not the answers
 * of its own steps, nor what the trigger fills in itself: `today`, `source_currency`),
 * `metadata.<key>` when it sends metadata, and the `cards.<name>` it pays with.
 */
function setKeys(fixture: TriggerFixture): { names: string[]; cards: string[] } {
  const steps = new Set(fixture.steps.map((step) => step.id));
  const names = new Set<string>();
  const cards = new Set<string>();
  for (const [, expression] of JSON.stringify(fixture.steps).matchAll(/\{\{([^{}]+)\}\}/g)) {
    for (const path of expression!.split('|')) {
      const [root, name] = path.trim().split('.') as [string, string | undefined];
      if (steps.has(root) || root === 'today' || root === 'source_currency') continue;
      if (root === 'cards' && name) cards.add(name);
      else names.add(root);
    }
  }
  const rank = (key: string) => (ORDER.includes(key) ? ORDER.indexOf(key) : ORDER.length);
  return { names: [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)), cards: [...cards].sort() };
}

/**
 * A data key the event's fixture never reads would be silently ignored, and the user would
 * believe it took effect: the trigger refuses it instead. Returns null when every key is read,
 * else the unknown keys and the keys the event takes, for the caller's message.
 */
export function unknownKeys(fixture: TriggerFixture, data: Record<string, unknown>): { unknown: string[]; takes: string[] } | null {
  const { names, cards } = setKeys(fixture);
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (key === 'cards' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const name of Object.keys(value)) if (!cards.includes(name)) unknown.push(`cards.${name}`);
    } else if (key === 'cards' || !names.includes(key)) {
      unknown.push(key);
    }
  }
  if (unknown.length === 0) return null;
  return { unknown, takes: [...names.map((name) => (name === 'metadata' ? 'metadata.<key>' : name)), ...cards.map((name) => `cards.${name}`)] };
}
