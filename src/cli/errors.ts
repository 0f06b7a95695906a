import { ApiError, Unreachable } from '../client/errors.js';

/** A failure the command reports and exits with (see docs/cli.md for the codes). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export const EXIT = { refused: 1, usage: 2, unreachable: 3 } as const;

/**
 * What a command's failure prints and exits with. The client's errors are mapped here, once,
 * rather than around each request: a refusal is `STATUS: detail` and the refused fields (exit
 * 1), no payemu at the URL says how to start one (exit 3). Anything else passes unchanged.
 */
export function toCliError(error: unknown): unknown {
  if (error instanceof ApiError) {
    const fields = Object.entries(error.fields)
      .map(([field, messages]) => `\n  ${field}: ${messages.join(' ')}`)
      .join('');
    return new CliError(`${error.status}: ${error.detail ?? error.text}${fields}`, EXIT.refused);
  }
  if (error instanceof Unreachable) {
    return new CliError(`${error.message}. Start one with \`payemu start\`, or point at it with --url or PAYEMU_URL.`, EXIT.unreachable);
  }
  return error;
}
