/**
 * How the commands that talk to a running emulator reach it: `--url` (or PAYEMU_URL, default
 * http://127.0.0.1:4242) and `--key` (or PAYEMU_API_KEY, default the acme test key).
 */
export const DEFAULT_URL = 'http://127.0.0.1:4242';
export const DEFAULT_KEY = 'sk_test_payemu_acme';

export interface Connection {
  url: string;
  key: string;
}

export function connection(options: { url?: string; key?: string }): Connection {
  const url = (options.url ?? process.env.PAYEMU_URL ?? DEFAULT_URL).replace(/\/+$/, '');
  return { url, key: options.key ?? process.env.PAYEMU_API_KEY ?? DEFAULT_KEY };
}

/** A failure the command reports and exits with (see docs/cli.md for the codes). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly body?: unknown,
  ) {
    super(message);
  }
}

export const EXIT = { refused: 1, usage: 2, unreachable: 3 } as const;

/** One request to the emulator; the envelope's detail becomes the error message. */
export async function call<T = any>(conn: Connection, method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${conn.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${conn.key}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw unreachable(conn, error);
  }
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  if (!res.ok) {
    const error = (parsed as { errors?: { detail?: string; meta?: { errors?: Record<string, string[]> } }[] })?.errors?.[0];
    const fields = error?.meta?.errors ? Object.entries(error.meta.errors).map(([f, m]) => `\n  ${f}: ${m.join(' ')}`).join('') : '';
    throw new CliError(`${res.status}: ${error?.detail ?? text}${fields}`, EXIT.refused, parsed);
  }
  return parsed as T;
}

export function unreachable(conn: Connection, error: unknown): CliError {
  const cause = (error as { cause?: { code?: string; errors?: { code?: string }[] } }).cause;
  const code = cause?.code ?? cause?.errors?.[0]?.code ?? (error as NodeJS.ErrnoException).code;
  const why = code === 'ECONNREFUSED' ? 'nothing is listening there' : `it cannot be reached (${code ?? (cause as Error | undefined)?.message ?? (error as Error).message})`;
  return new CliError(`no payemu at ${conn.url}: ${why}. Start one with \`payemu start\`, or point at it with --url or PAYEMU_URL.`, EXIT.unreachable);
}
