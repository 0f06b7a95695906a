import { connect } from './client.js';
import { output } from './output.js';

interface Options {
  url?: string;
  key?: string;
  json?: boolean;
}

/** `payemu clock [show]`. */
export async function show(options: Options): Promise<void> {
  const out = output(options);
  const clock = await connect(options).clock();
  out.result(clock, () => `${clock.now}  (offset ${clock.offset_seconds} s${clock.frozen ? ', frozen' : ''})`);
}

/** `payemu clock advance <duration>`: runs everything that falls due on the way. */
export async function advance(by: string, options: Options): Promise<void> {
  const out = output(options);
  const result = await connect(options).advanceClock({ by: /^\d+(\.\d+)?$/.test(by) ? Number(by) : by });
  out.result(result, () => {
    const ran = Object.entries(result.ran).map(([kind, n]) => `  ${kind}: ${n}`);
    return `clock now ${out.c.bold(result.now)}${ran.length ? `\nran:\n${ran.join('\n')}` : '\nnothing fell due'}`;
  });
}
