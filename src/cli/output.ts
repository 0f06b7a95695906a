import { Chalk } from 'chalk';

/**
 * How a command speaks: `--json` prints the answer as JSON for scripts; otherwise human lines,
 * coloured on a terminal (chalk), plain when piped or in CI.
 */
export interface Output {
  json: boolean;
  /** Prints `value` as JSON with --json, else the human text. */
  result(value: unknown, human: () => string): void;
  line(text: string): void;
  c: InstanceType<typeof Chalk>;
}

export function output(options: { json?: boolean }): Output {
  const color = process.stdout.isTTY === true && !process.env.CI && process.env.TERM !== 'dumb' && !process.env.NO_COLOR;
  const c = new Chalk({ level: color ? 1 : 0 });
  const json = options.json === true;
  return {
    json,
    c,
    result: (value, human) => process.stdout.write(`${json ? JSON.stringify(value) : human()}\n`),
    line: (text) => process.stdout.write(`${text}\n`),
  };
}
