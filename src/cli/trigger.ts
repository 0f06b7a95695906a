import { EVENT_NAMES } from '../bus/events.js';
import { loadFixtures, type TriggerFixture } from '../control/triggers/fixtures.js';
import { parseSet } from '../control/triggers/template.js';
import { connect } from './client.js';
import { CliError, EXIT } from './errors.js';
import { output } from './output.js';

export interface TriggerOptions {
  set?: string[];
  source?: string;
  url?: string;
  key?: string;
  json?: boolean;
}

/** `payemu trigger <event>`: makes the event happen on a running emulator. */
export async function trigger(event: string, options: TriggerOptions): Promise<void> {
  if (!(EVENT_NAMES as readonly string[]).includes(event)) {
    throw new CliError(`unknown event "${event}". Events:\n  ${EVENT_NAMES.join('\n  ')}`, EXIT.usage);
  }
  let data: Record<string, unknown>;
  try {
    data = parseSet(options.set ?? []);
  } catch (error) {
    throw new CliError((error as Error).message, EXIT.usage);
  }
  const fixture = loadFixtures().fixtures.get(event);
  if (fixture) checkSetKeys(fixture, data);
  const out = output(options);
  const result = await connect(options).trigger(event, data, options.source ? { source: options.source } : {});
  out.result(result, () => {
    const steps = result.steps
      .map((s) => `  ${out.c.dim(s.method.padEnd(6))} ${s.path} ${out.c.green(String(s.status))}${s.created ? ` ${out.c.cyan(s.created)}` : ''}`)
      .join('\n');
    return `${out.c.bold(event)} triggered on ${result.source}/${result.mode}\n${steps}\n  event id ${out.c.cyan(result.event_id ?? '(none)')}`;
  });
}

/** The order keys are listed in (the fixtures' own variables, then the cards). */
const ORDER = ['amount', 'new_amount', 'currency', 'reference', 'customer_email', 'customer_name', 'description', 'metadata', 'cards'];

/**
 * The `--set` keys an event's fixture uses: the variables its placeholders read (not the
 * answers of its own steps, nor what the trigger fills in itself: `today`, `source_currency`),
 * `metadata.<key>` when it sends metadata, and the `cards.<name>` it pays with.
 */
export function setKeys(fixture: TriggerFixture): { names: string[]; cards: string[] } {
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

/** A `--set` key the event's fixture never reads would be silently ignored: refused instead (exit 2). */
function checkSetKeys(fixture: TriggerFixture, data: Record<string, unknown>): void {
  const { names, cards } = setKeys(fixture);
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (key === 'cards' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const name of Object.keys(value)) if (!cards.includes(name)) unknown.push(`cards.${name}`);
    } else if (key === 'cards' || !names.includes(key)) {
      unknown.push(key);
    }
  }
  if (unknown.length === 0) return;
  const takes = [...names.map((name) => (name === 'metadata' ? 'metadata.<key>' : name)), ...cards.map((name) => `cards.${name}`)];
  const which = unknown.map((key) => `"${key}"`).join(', ');
  throw new CliError(`--set ${which}: ${fixture.event} takes no such key${unknown.length > 1 ? 's' : ''}. Its keys: ${takes.join(', ')}`, EXIT.usage);
}
