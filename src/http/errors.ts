import { STATUS_CODES } from 'node:http';

/**
 * The one error type. Throw it (or a subclass) from anywhere; exactly one function
 * (envelope.ts `sendError`) turns it into the API's `{errors: [...]}`.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly meta?: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  get title(): string {
    return TITLES[this.status] ?? STATUS_CODES[this.status] ?? 'Error';
  }

  toJSON() {
    return {
      errors: [{ status: String(this.status), title: this.title, detail: this.detail, ...(this.meta ? { meta: this.meta } : {}) }],
    };
  }
}

const TITLES: Record<number, string> = { 413: 'Payload Too Large', 422: 'Unprocessable Entity' };

export class BadRequest extends HttpError {
  constructor(detail: string) {
    super(400, detail);
  }
}

export class Unauthorized extends HttpError {
  constructor(
    detail = 'Invalid or missing API key. Send your secret key as a Bearer token: "Authorization: Bearer sk_test_..." (or in the X-API-Key header).',
  ) {
    super(401, detail, undefined, {
      'WWW-Authenticate': 'Bearer',
    });
  }
}

export class Forbidden extends HttpError {
  constructor(detail: string) {
    super(403, detail);
  }
}

export class NotFound extends HttpError {
  constructor(detail: string) {
    super(404, detail);
  }
}

export class MethodNotAllowed extends HttpError {
  constructor(method: string, allowed: readonly string[]) {
    super(405, `The ${method} method is not supported for this route. Supported methods: ${allowed.join(', ')}.`, undefined, {
      Allow: allowed.join(', '),
    });
  }
}

export class Conflict extends HttpError {
  constructor(detail: string) {
    super(409, detail);
  }
}

export class Gone extends HttpError {
  constructor(detail: string) {
    super(410, detail);
  }
}

export class PayloadTooLarge extends HttpError {
  constructor(limit: number) {
    super(413, `The request body is larger than ${limit / 1024 / 1024} MiB.`);
  }
}

export class UnsupportedMediaType extends HttpError {
  constructor(type: string | undefined) {
    super(415, `The request body must be JSON sent with "Content-Type: application/json"${type ? ` (got "${type}")` : ''}.`);
  }
}

/** A validation failure: `errors` is the `meta.errors` map of field path -> messages. */
export class Unprocessable extends HttpError {
  constructor(detail: string, errors?: Record<string, string[]>) {
    super(422, detail, errors ? { errors } : undefined);
  }

  /** One field's error, with the summary line Laravel-style APIs give. */
  static field(field: string, message: string): Unprocessable {
    return new Unprocessable(message, { [field]: [message] });
  }
}

/**
 * A 422 of the request's own form that its JSON Schema does not say (a duration, an event name, a
 * rule between two fields), thrown before any work: refused as a schema 422 is, so that an
 * `Idempotency-Key` does not keep it and the corrected request may reuse the key, as on /v1
 * (idempotency.ts). A refusal that depends on the state (a time in the past, a record that does
 * not exist) is a plain `Unprocessable`, kept with the key.
 */
export class InvalidInput extends Unprocessable {
  static override field(field: string, message: string): InvalidInput {
    return new InvalidInput(message, { [field]: [message] });
  }
}

export class TooManyRequests extends HttpError {
  constructor(retryAfterSeconds: number, limit: number) {
    super(429, `Too many requests: the rate limit of ${limit} requests per minute was exceeded. Retry after ${retryAfterSeconds} seconds.`, undefined, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
}

export class InternalError extends HttpError {
  constructor() {
    super(500, 'Something went wrong inside payemu. The request was not applied; the details are in the emulator log.');
  }
}

/** The file system refused a store write (store/write-refused.ts): nothing was applied; a later write may succeed. */
export class ServiceUnavailable extends HttpError {
  constructor(detail: string) {
    super(503, detail);
  }
}
