/**
 * A fault as a user writes it (`POST /_payemu/faults`, or `faults` on a Source in the config):
 * its JSON Schema, the rules between fields that a schema cannot say well, the defaults, the
 * path glob and the seeded generator. Shared by the control plane, the config and the HTTP
 * layer that applies faults, so the three cannot disagree.
 */

export const FAULT_METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;

/** The longest wait a fault may add: a minute, longer than any client's sensible timeout. */
export const MAX_LATENCY_MS = 60_000;

/** The most times a fault may act before it retires (a counter, kept below 2^31). */
export const MAX_FAULT_TIMES = 2_147_483_647;

/** The seed of a fault that gives none: a run without seeds still repeats exactly. */
export const DEFAULT_SEED = 1;

/** A fault with its defaults filled: what is stored and shown (with `id` and `hits`). */
export interface FaultSpec {
  /** Only requests of this method; null: any. */
  method: (typeof FAULT_METHODS)[number] | null;
  /** A glob of /v1 paths: `*` one segment, `**` the rest. */
  path: string;
  /** The answer's status (400 to 599); null: the real answer's. */
  status: number | null;
  /** The answer's JSON body instead of the error envelope; null: the envelope. */
  body: unknown;
  /** Real milliseconds to wait before anything else. */
  latency_ms: number;
  /** Close the connection unanswered. */
  drop: boolean;
  /** Run the request for real, then replace its answer. */
  apply: boolean;
  /** The chance (0 to 1) that a matching request is acted on. */
  probability: number;
  /** Acts this many times, then retires; null: never retires. */
  times: number | null;
  seed: number;
}

export const faultSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['path'],
  properties: {
    method: { type: ['string', 'null'], enum: [...FAULT_METHODS, null] },
    path: {
      type: 'string',
      maxLength: 255,
      pattern: '^/v1/[^\\s?#]*$',
      patternMessage: 'The {field} field must be a path starting with /v1/ (a glob: * one segment, ** the rest), without query or spaces.',
    },
    status: { type: ['integer', 'null'], minimum: 400, maximum: 599 },
    body: {},
    latency_ms: { type: 'integer', minimum: 0, maximum: MAX_LATENCY_MS },
    drop: { type: 'boolean' },
    apply: { type: 'boolean' },
    probability: { type: 'number', minimum: 0, maximum: 1 },
    times: { type: ['integer', 'null'], minimum: 1, maximum: MAX_FAULT_TIMES },
    seed: { type: 'integer', minimum: 0, maximum: 4_294_967_295 },
  },
} as const;

/** What a user may send: the schema's fields, all optional but `path`. */
export type FaultInput = Partial<FaultSpec> & { path: string };

/** The first rule between fields `input` breaks, as `[field, message]`; the schema is checked first. */
export function faultProblem(input: FaultInput): [field: string, message: string] | undefined {
  const segments = input.path.split('/').slice(1);
  const last = segments.length - 1;
  for (const [i, segment] of segments.entries()) {
    if (segment === '' && i < last) return ['path', 'The path field must not have empty segments (//).'];
    if (segment === '**' && i < last) return ['path', 'The path field may use ** only as its last segment (it stands for the rest of the path).'];
    if (segment.includes('*') && segment !== '*' && segment !== '**')
      return ['path', 'The path field may use * and ** only as whole segments (/v1/payments/*/refunds).'];
  }
  const status = input.status ?? null;
  if (input.drop && status !== null) return ['drop', 'The drop field closes the connection unanswered: it cannot be given with status.'];
  if (input.body !== undefined && input.body !== null && status === null) return ['body', 'The body field is the answer of status: give status too.'];
  if (status === null && !input.drop && !input.latency_ms) return ['status', 'A fault must do something: give status, drop or latency_ms.'];
  return undefined;
}

/** `input` with the defaults filled. */
export function withDefaults(input: FaultInput): FaultSpec {
  return {
    method: input.method ?? null,
    path: input.path,
    status: input.status ?? null,
    body: input.body ?? null,
    latency_ms: input.latency_ms ?? 0,
    drop: input.drop ?? false,
    apply: input.apply ?? false,
    probability: input.probability ?? 1,
    times: input.times ?? null,
    seed: input.seed ?? DEFAULT_SEED,
  };
}

const globs = new Map<string, RegExp>();

/**
 * Whether the glob `pattern` matches the request path `path` (without its query; a trailing
 * slash does not count). `*` is one segment; a last `**` is the rest of the path, even none of
 * it (`/v1/payments/**` matches `/v1/payments` too).
 */
export function matchesPath(pattern: string, path: string): boolean {
  let regex = globs.get(pattern);
  if (!regex) {
    const trimmed = pattern.length > 4 && pattern.endsWith('/') ? pattern.slice(0, -1) : pattern;
    const source = trimmed
      .split('/')
      .map((segment) => (segment === '*' ? '[^/]+' : segment === '**' ? '\u0000' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')
      .replace('/\u0000', '(?:/.*)?');
    globs.set(pattern, (regex = new RegExp(`^${source}/?$`)));
  }
  return regex.test(path);
}

/**
 * One draw of the fault's generator (mulberry32): a number in [0, 1) and the generator's next
 * state. The state starts at the seed and is stored with the fault, so a run repeats exactly.
 */
export function draw(state: number): [value: number, next: number] {
  const next = (state + 0x6d2b79f5) >>> 0;
  let t = Math.imul(next ^ (next >>> 15), next | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return [((t ^ (t >>> 14)) >>> 0) / 4_294_967_296, next];
}
