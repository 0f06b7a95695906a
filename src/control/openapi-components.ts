import { errors, schemaName, type Schema } from '../schemas/wire.js';

/*
 * The parts of the OpenAPI document the operations refer to (src/control/openapi.ts builds the
 * operations): the answers several routes share, the headers, and the schemas, with payemu's own
 * keywords translated into standard ones or `x-payemu-*`.
 */

/** One answer of an operation, as the document writes it. */
export interface ResponseObject {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: unknown }>;
}

/** Descriptions of the answers several routes share; every one of them is the error envelope. */
export const SHARED: Record<number, { name: string; description: string; headers?: string[] }> = {
  400: {
    name: 'BadRequest',
    description:
      'Malformed request: percent-escapes that are not UTF-8, a body that is not UTF-8 or not JSON or is nested more than 64 levels, an `Idempotency-Key` that is not 1 to 255 characters, an `include` path the resource does not have.',
  },
  401: {
    name: 'Unauthorized',
    description: 'Missing or invalid key, or a key whose `~NAME` suffix is not a namespace name (1 to 32 characters of a-z, 0-9, `_`, `-`).',
    headers: ['WWW-Authenticate'],
  },
  403: {
    name: 'Forbidden',
    description: "The `Host` header is not a name payemu answers to (DNS rebinding guard), or the Source's IP whitelist does not include the caller.",
  },
  404: { name: 'NotFound', description: 'No such object for this Source and mode (or no such route).' },
  405: {
    name: 'MethodNotAllowed',
    description:
      "The answer of every path to the methods it is not served with (no operation lists it: a path's operations are its methods). `Allow` lists the path's methods.",
    headers: ['Allow'],
  },
  409: { name: 'Conflict', description: 'Conflict with the current state, or an `Idempotency-Key` reused with a different request.' },
  410: { name: 'Gone', description: 'The session has expired.' },
  413: { name: 'PayloadTooLarge', description: 'The body is larger than 1 MiB.' },
  415: { name: 'UnsupportedMediaType', description: 'A body sent with another `Content-Type` than `application/json`.' },
  422: { name: 'UnprocessableEntity', description: 'Validation failed (`meta.errors` maps each field to its messages), or the rules refuse the change.' },
  // Its headers come with the count (countedHeaders): a trigger passes on its step's 429 without them.
  429: {
    name: 'TooManyRequests',
    description:
      "Rate limit exceeded; or the key's `~NAME` would make one namespace more than `--max-namespaces` allows (then `Retry-After` is 1 and `X-RateLimit-Remaining` is the whole limit: the request was not counted).",
  },
  500: { name: 'InternalServerError', description: 'A failure inside payemu; the request was not applied.' },
  503: {
    name: 'ServiceUnavailable',
    description:
      'The file system refused to store the change (a full disk, a read-only or removed data directory, no file descriptor left); the request was not applied. `detail` names the cause; once it is gone the same request can be sent again.',
  },
};

/**
 * The headers answers carry; `required` where every answer that lists the header has it: the
 * rate limit's are listed on the answers given once the request was counted (see `counted`),
 * `Retry-After` on a /v1 429, `Allow` on the 405. test/helpers/openapi.ts checks each answer a
 * test receives for the ones its listed answer requires.
 */
const HEADERS: Record<string, { description: string; required?: true; schema: Schema }> = {
  'WWW-Authenticate': { description: '`Bearer`.', schema: { type: 'string' } },
  Allow: { description: 'The methods the path is served with.', required: true, schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait.', required: true, schema: { type: 'integer' } },
  'X-RateLimit-Limit': { description: 'Requests allowed per minute for the Source and mode.', required: true, schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current minute.', required: true, schema: { type: 'integer' } },
  'Idempotent-Replayed': { description: '`true` on an answer replayed for a repeated `Idempotency-Key`.', schema: { type: 'string', enum: ['true'] } },
};

const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining'];

/** The headers every answer with `status` carries once the rate limiter counted the request: its own, and on its 429 `Retry-After`. */
export const countedHeaders = (status: number) => (status === 429 ? ['Retry-After', ...RATE_LIMIT_HEADERS] : RATE_LIMIT_HEADERS);

/** The schemas, shared answers and headers the operations refer to. */
export class Components {
  private readonly schemas = new Map<string, { source: object; schema?: unknown }>();
  /** The shared answers referred to, by name: their status and headers. */
  private readonly responses = new Map<string, { status: number; headers: string[] }>();

  /** `schema` as the document holds it: payemu's own keywords turned into standard ones or `x-payemu-*`, named schemas by reference. */
  schema(schema: object): unknown {
    return this.convert(schema);
  }

  /**
   * The name of the shared answer with `status`; `counted`: the variant a rate-limited route
   * answers once it counted the request, with the rate limit's headers (`<Name>WithRateLimit`).
   */
  shareResponse(status: number, counted = false): string {
    const shared = SHARED[status];
    if (!shared) throw new Error(`openapi: no shared answer for status ${status}; declare its schema on the route`);
    const own = shared.headers ?? [];
    const headers = counted ? [...own, ...countedHeaders(status)] : own;
    const name = counted ? `${shared.name}WithRateLimit` : shared.name;
    this.responses.set(name, { status, headers });
    return name;
  }

  toJSON() {
    const usedHeaders = new Set([...RATE_LIMIT_HEADERS, 'Idempotent-Replayed']);
    const responses: Record<string, ResponseObject> = {};
    const byStatus = [...this.responses.entries()].sort(([a, x], [b, y]) => x.status - y.status || a.localeCompare(b));
    for (const [name, { status, headers }] of byStatus) {
      for (const header of headers) usedHeaders.add(header);
      responses[name] = {
        description: SHARED[status]!.description,
        ...(headers.length > 0 ? { headers: Object.fromEntries(headers.map((h) => [h, { $ref: `#/components/headers/${h}` }])) } : {}),
        content: { 'application/json': { schema: this.convert(errors) } },
      };
    }
    const schemas = Object.fromEntries([...this.schemas.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, entry]) => [name, entry.schema]));
    return {
      schemas,
      responses,
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes a retry safe: for 24 hours (virtual time, from the answer) a repeat with the same method, path and body replays the first answer (`Idempotent-Replayed: true`) and does not run again; another request with the key is a 409. A repeat sent while the first still runs (a long clock advance, a trigger) waits for it and gets the replay.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      },
      headers: Object.fromEntries(Object.entries(HEADERS).filter(([name]) => usedHeaders.has(name))),
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            "A Source's secret key: `Authorization: Bearer sk_test_...` (or `sk_live_...`). A key ending in `~NAME` (`sk_test_payemu_acme~w3`; NAME 1 to 32 characters of a-z, 0-9, `_`, `-`) acts in the namespace NAME, a whole emulator state of its own, made on its first request.",
        },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The same key in the `X-API-Key` header (with its `~NAME`, if any).' },
        queryKey: { type: 'apiKey', in: 'query', name: 'key', description: 'The key as `?key=` (the event stream only: `EventSource` cannot set headers).' },
      },
    };
  }

  private convert(value: object): unknown {
    const name = schemaName(value);
    if (name !== undefined) {
      const ref = { $ref: `#/components/schemas/${name}` };
      const entry = this.schemas.get(name);
      if (entry) {
        if (entry.source !== value) throw new Error(`openapi: two different schemas are named ${name}`);
        return ref;
      }
      const reserved: { source: object; schema?: unknown } = { source: value };
      this.schemas.set(name, reserved);
      reserved.schema = this.keywords(value as Schema);
      return ref;
    }
    return this.keywords(value as Schema);
  }

  /** One schema object: its subschemas converted, payemu's keywords translated. */
  private keywords(schema: Schema): Schema {
    const out: Schema = {};
    for (const [key, value] of Object.entries(schema)) {
      if (SCHEMA_MAPS.has(key) && isObject(value)) {
        out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isObject(v) ? this.convert(v) : v]));
      } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
        out[key] = value.map((v) => (isObject(v) ? this.convert(v) : v));
      } else if (SCHEMA_VALUES.has(key) && isObject(value)) {
        out[key] = this.convert(value);
      } else if (key === 'money' && value === true) {
        out['x-payemu-decimals'] = 2;
      } else if (key === 'currency' && value === true) {
        out['x-payemu-currency'] = 'ISO 4217';
        if (!('pattern' in schema)) out.pattern = '^[A-Za-z]{3}$';
      } else if (key === 'ipOrCidr' && value === true) {
        out['x-payemu-format'] = 'ip-or-cidr';
      } else if (key === 'format' && value === 'url') {
        out.format = 'uri';
        out['x-payemu-format'] = 'url';
        if (!('pattern' in schema)) out.pattern = '^[Hh][Tt][Tt][Pp][Ss]?://[^/\\\\?#\\s]\\S*$';
        if (!('maxLength' in schema)) out.maxLength = 2048;
      } else if ((key === 'patternMessage' || key === 'notMessage' || key === 'requiredMessage') && typeof value === 'string') {
        // The refusal's message, as the field's description ("This field can only be set when ...").
        if (!('description' in schema)) out.description = value.replace('The {field} field', 'This field');
      } else {
        out[key] = value;
      }
    }
    return out;
  }
}

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_VALUES = new Set([
  'items',
  'not',
  'additionalProperties',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
]);

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
