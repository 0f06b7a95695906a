/**
 * The two ways a request to payemu fails, as the client reports them: payemu answered with an
 * error status (`ApiError`, carrying the `{errors: [...]}` envelope), or nothing answered
 * (`Unreachable`). Callers decide what each means for them (the CLI: exit codes 1 and 3).
 */

/** One entry of the `{errors: [...]}` envelope every error answer of payemu carries. */
export interface ErrorObject {
  status?: string;
  title?: string;
  detail?: string;
  /** For a 422: `errors` maps each refused field to its messages. */
  meta?: { errors?: Record<string, string[]> } & Record<string, unknown>;
}

/** The first error of an envelope, or undefined when `body` is not one (not JSON, a proxy's page). */
export function envelopeError(body: unknown): ErrorObject | undefined {
  const errors = (body as { errors?: unknown } | null | undefined)?.errors;
  if (!Array.isArray(errors)) return undefined;
  const first: unknown = errors[0];
  return first !== null && typeof first === 'object' ? (first as ErrorObject) : undefined;
}

/**
 * payemu answered, with a status that is not 2xx. The message is the envelope's detail (its
 * title, or the status, when an answer has none), a sentence meant for people.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The envelope's first error, when the answer was one. */
  readonly error: ErrorObject | undefined;

  constructor(
    readonly status: number,
    /** The answer, parsed as JSON when it was JSON, else its text. */
    readonly body: unknown,
    /** The answer as sent. */
    readonly text: string,
  ) {
    const error = envelopeError(body);
    super(stringOr(error?.detail) ?? stringOr(error?.title) ?? `HTTP ${status}`);
    this.error = error;
  }

  get detail(): string | undefined {
    return stringOr(this.error?.detail);
  }

  get title(): string | undefined {
    return stringOr(this.error?.title);
  }

  get meta(): ErrorObject['meta'] {
    return this.error?.meta;
  }

  /** A 422's messages by field (`meta.errors`); empty for other refusals. */
  get fields(): Record<string, string[]> {
    return this.error?.meta?.errors ?? {};
  }
}

/** The code of the error the transport rejects with when what answered is not HTTP (a status outside 200 to 599). */
export const NOT_HTTP = 'ERR_PAYEMU_NOT_HTTP';

/** Nothing answered at `url`: no server listening, a name that does not resolve, a reset connection. */
export class Unreachable extends Error {
  override readonly name = 'Unreachable';
  /** The system's error code when there is one (`ECONNREFUSED`, `ENOTFOUND`, ...). */
  readonly code: string | undefined;

  constructor(
    readonly url: string,
    error: unknown,
  ) {
    // Node's fetch hides the socket error in `cause` (and, for a name with several addresses,
    // in `cause.errors`): the code is what tells "not started" from "wrong address".
    const cause = (error as { cause?: { code?: string; errors?: { code?: string }[]; message?: string } }).cause;
    const code = cause?.code ?? cause?.errors?.[0]?.code ?? (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ECONNREFUSED'
        ? 'nothing is listening there'
        : code === NOT_HTTP
          ? (error as Error).message
          : `it cannot be reached (${code ?? cause?.message ?? (error as Error).message})`;
    super(`no payemu at ${url}: ${why}`, { cause: error });
    this.code = code;
  }
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
