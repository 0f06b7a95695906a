import { EVENT_NAMES } from './event-names.js';
import { loadFixtures, type TriggerFixture } from '../control/triggers/fixtures.js';
import { unknownKeys } from '../control/triggers/keys.js';
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

/** A `--set` key the event's fixture never reads is refused (exit 2), naming the keys it takes. */
function checkSetKeys(fixture: TriggerFixture, data: Record<string, unknown>): void {
  const refused = unknownKeys(fixture, data);
  if (!refused) return;
  const which = refused.unknown.map((key) => `"${key}"`).join(', ');
  throw new CliError(
    `--set ${which}: ${fixture.event} takes no such key${refused.unknown.length > 1 ? 's' : ''}. Its keys: ${refused.takes.join(', ')}`,
    EXIT.usage,
  );
}
