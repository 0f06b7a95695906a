import type { ValidateFunction } from 'ajv';
import { precompiled, type SchemaKind } from '../lib/precompiled.js';
import { createAjv, toFieldErrors } from '../lib/schemas.js';
import { Unprocessable } from './errors.js';

// Compiled once per schema object, on first use (see http/server.ts); bodies as sent, queries
// coerced from strings. A build's validators (lib/precompiled.ts) are used when they have the
// schema; otherwise the ajv instances are created with the first schema to compile.
let bodies: ReturnType<typeof createAjv> | undefined;
let queries: ReturnType<typeof createAjv> | undefined;
const cache = new WeakMap<object, ValidateFunction>();

export function compileBody(schema: object): ValidateFunction {
  return compile('body', () => (bodies ??= createAjv()), schema);
}

/** A stored record's schema (a snapshot import checks each record against it): JSON as it is, like a body. */
export function compileRecord(schema: object): ValidateFunction {
  return compile('record', () => (bodies ??= createAjv()), schema);
}

export function compileQuery(schema: object): ValidateFunction {
  return compile('query', () => (queries ??= createAjv({ coerceTypes: true })), schema);
}

function compile(kind: SchemaKind, ajv: () => ReturnType<typeof createAjv>, schema: object): ValidateFunction {
  let validate = cache.get(schema);
  if (!validate) cache.set(schema, (validate = precompiled(kind, schema) ?? ajv().compile(schema)));
  return validate;
}

/** Validates (and, for queries, coerces) `data`, or throws the 422 with `meta.errors`. */
export function check<T>(validate: ValidateFunction, data: unknown): T {
  if (validate(data)) return data as T;
  const errors = toFieldErrors(validate);
  const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
  const more = Object.values(errors).reduce((n, list) => n + list.length, 0) - 1;
  throw new Unprocessable(more > 0 ? `${first} (and ${more} more error${more > 1 ? 's' : ''})` : first, errors);
}
