import { parseTimestamp } from '../clock/format.js';
import { type ConnectOptions, connect } from './client.js';
import { CliError, EXIT } from './errors.js';
import { output } from './output.js';

interface Options extends ConnectOptions {
  json?: boolean;
}

/** `payemu clock [show]`. */
export async function show(options: Options): Promise<void> {
  const out = output(options);
  const clock = await connect(options).clock();
  out.result(clock, () => `${clock.now}  (offset ${clock.offset_seconds} s${clock.frozen ? ', frozen' : ''})`);
}

/**
 * `payemu clock advance <duration>` or `payemu clock advance --to <timestamp>`: runs everything
 * that falls due on the way.
 */
export async function advance(by: string | undefined, options: Options & { to?: string }): Promise<void> {
  if (by !== undefined && options.to !== undefined)
    throw new CliError('clock advance takes a duration or --to TIMESTAMP, not both. See `payemu clock advance --help`.', EXIT.usage);
  if (by === undefined && options.to === undefined)
    throw new CliError('clock advance needs a duration (30d, 12h, 90m, 45s) or --to TIMESTAMP. See `payemu clock advance --help`.', EXIT.usage);
  if (options.to !== undefined && parseTimestamp(options.to) === undefined) {
    throw new CliError(`--to: not an ISO 8601 timestamp: ${options.to} (e.g. 2027-01-01 or 2027-01-01T09:30:00Z)`, EXIT.usage);
  }
  const out = output(options);
  const result = await connect(options).advanceClock(by === undefined ? { to: options.to! } : { by: /^\d+(\.\d+)?$/.test(by) ? Number(by) : by });
  out.result(result, () => {
    const ran = Object.entries(result.ran).map(([kind, n]) => `  ${kind}: ${n}`);
    return `clock now ${out.c.bold(result.now)}${ran.length ? `\nran:\n${ran.join('\n')}` : '\nnothing fell due'}`;
  });
}
