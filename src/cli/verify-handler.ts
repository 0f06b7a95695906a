import type { EventName } from '../types.js';
import { EVENT_NAMES } from './event-names.js';
import { parseDuration } from '../clock/duration.js';
import { isSafeUrl } from '../lib/schemas.js';
import { startEmulator } from '../emulator.js';
import { gradeHandler, type Delivery, type Grade } from '../webhooks/grade.js';
import { CliError, EXIT } from './errors.js';
import { output, type Output } from './output.js';

export interface VerifyHandlerOptions {
  secret: string;
  event: string;
  timeout: string;
  json?: boolean;
}

/**
 * `payemu verify-handler URL`: grades a webhook receiver (src/webhooks/grade.ts). Exit 0 when
 * every check passes, 1 when one fails, 2 for bad usage (a URL that is not http(s), an unknown
 * event, a bad --timeout), 3 when nothing answers at the URL. Needs no running emulator: the
 * payloads are made by an in-memory one, through the event's trigger fixture.
 */
export async function verifyHandler(url: string, options: VerifyHandlerOptions): Promise<void> {
  if (!isSafeUrl(url)) throw new CliError(`verify-handler: not an absolute http:// or https:// URL: ${url}`, EXIT.usage);
  if (!(EVENT_NAMES as readonly string[]).includes(options.event)) {
    throw new CliError(`--event: unknown event ${options.event}. Events: ${EVENT_NAMES.join(', ')}`, EXIT.usage);
  }
  const timeoutMs = parseDuration(options.timeout);
  if (timeoutMs === undefined || timeoutMs <= 0) throw new CliError(`--timeout: not a duration: ${options.timeout} (e.g. 10s, 500ms)`, EXIT.usage);
  const event = options.event as EventName;
  // Another event of the contract, from another part of it, that the graded handler may not use.
  const other: EventName = event.startsWith('invoice.') ? 'payment.refunded' : 'invoice.overdue';
  const [delivery, unhandled] = await realDeliveries([event, other]);
  const grade = await gradeHandler(url, { secret: options.secret, delivery: delivery!, unhandled: unhandled!, timeoutMs });
  if (grade.unreachable !== undefined) {
    throw new CliError(`verify-handler: nothing answers at ${url} (${grade.unreachable}); start the receiver first`, EXIT.unreachable);
  }
  const out = output(options);
  out.result({ passed: grade.passed, checks: grade.checks }, () => table(grade, url, event, out));
  if (!grade.passed) process.exitCode = EXIT.refused;
}

/** Each event's webhook body as payemu sends it, made by its trigger fixture in an in-memory payemu. */
async function realDeliveries(events: EventName[]): Promise<Delivery[]> {
  const payemu = await startEmulator({ inMemory: true, port: 0 });
  try {
    const deliveries: Delivery[] = [];
    for (const event of events) {
      const result = await payemu.trigger(event);
      const raised = result.event_id === null ? undefined : payemu.events.get(result.event_id);
      if (!raised) throw new Error(`the ${event} fixture raised no event`);
      deliveries.push({ event, payload: raised.payload });
    }
    return deliveries;
  } finally {
    await payemu.close();
  }
}

function table(grade: Grade, url: string, event: string, out: Output): string {
  const width = Math.max(...grade.checks.map((c) => c.name.length));
  const lines = grade.checks.map(
    (c) => `  ${c.passed ? out.c.green('PASS') : out.c.red('FAIL')}  ${c.name.padEnd(width)}  ${c.passed ? out.c.dim(c.detail) : c.detail}`,
  );
  const passed = grade.checks.filter((c) => c.passed).length;
  const summary = grade.passed
    ? out.c.green(`all ${passed} checks passed`)
    : out.c.red(`${grade.checks.length - passed} of ${grade.checks.length} checks failed`);
  return [`verify-handler ${url} (${event})`, ...lines, summary].join('\n');
}
