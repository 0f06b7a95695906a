/**
 * Whether `payemu start` shows the terminal UI (docs/cli.md, Output). Only a person at a real
 * terminal gets it: a pipe, CI, a dumb terminal, `--no-ui` or `--json` get plain (or JSON) lines
 * whose first is the readiness contract. stdin matters too: Ink reads keys from it in raw mode,
 * which a pipe or /dev/null cannot do.
 */
export function wantsTerminalUi(options: {
  ui: boolean;
  json: boolean;
  stdoutIsTTY: boolean;
  stdinIsTTY: boolean;
  env: Record<string, string | undefined>;
}): boolean {
  const { env } = options;
  return options.ui && !options.json && options.stdoutIsTTY && options.stdinIsTTY && !inCi(env) && env.TERM !== 'dumb';
}

/** As Ink's own is-in-ci reads it: set, and not "0" or "false". */
export function inCi(env: Record<string, string | undefined>): boolean {
  const set = (name: string) => env[name] !== undefined && env[name] !== '0' && env[name] !== 'false';
  return set('CI') || set('CONTINUOUS_INTEGRATION');
}
