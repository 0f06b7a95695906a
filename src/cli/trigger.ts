import { STATUS_CODES } from 'node:http';
import type { TriggerResult } from '../client/types.js';
import { EVENT_NAMES } from './event-names.js';
import { createdKind } from '../control/triggers/created.js';
import { loadFixtures, type TriggerFixture } from '../control/triggers/fixtures.js';
import { unknownKeys } from '../control/triggers/keys.js';
import { parseSet } from '../control/triggers/template.js';
import { type ConnectOptions, connect } from './client.js';
import { CliError, EXIT } from './errors.js';
import { output, type Output } from './output.js';

export interface TriggerOptions extends ConnectOptions {
  set?: string[];
  source?: string;
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
    const steps = result.steps.map((s) => `  ${out.c.dim(s.method.padEnd(6))} ${stepText(s, out)}`).join('\n');
    return `${out.c.bold(event)} triggered on ${result.source}/${result.mode}\n${steps}\n  event id ${out.c.cyan(result.event_id ?? '(none)')}`;
  });
}

type Step = TriggerResult['steps'][number];

/**
 * A step's line after its method, every value named: the path, the status with its reason
 * (`201 Created`), then what the step made or acted on (`payment 3`, `session cs_...`). An effect
 * step (`EFFECT`) has no path: its effect, then the card it marked.
 */
function stepText(step: Step, out: Output): string {
  if (step.method === 'EFFECT') {
    const [effect, id] = step.path.split(' ');
    return `${effect}${id ? ` on payment method ${out.c.cyan(id)}` : ''}`;
  }
  const status = `${step.status}${STATUS_CODES[step.status] ? ` ${STATUS_CODES[step.status]}` : ''}`;
  return `${step.path}  ${out.c.green(status)}${step.created ? `  ${createdKind(step.created, step.path)} ${out.c.cyan(step.created)}` : ''}`;
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
