/**
 * Building blocks of the JSON Schemas of stored records (a collection's `schema`): what a record
 * payemu writes itself always is, so that a record read from a snapshot document is held to the
 * same rules (src/control/snapshot-records.ts). Plain JSON Schema, validated by ajv with
 * payemu's keywords (src/lib/schemas.ts).
 */

/** The latest time stamp a record may hold: 9999-12-31T23:59:59.999Z, in epoch ms. */
export const MAX_TIMESTAMP_MS = 253_402_300_799_999;

/** Counters, counts and ids drawn from counters stay below 2^31. */
export const MAX_COUNT = 2_147_483_647;

/**
 * The largest amount a record may hold, in minor units: the largest exact integer. Amounts the
 * API takes are far smaller (999,999,999.99 at most), but sums of them are stored too (an
 * invoice of 500 lines of 1,000,000 units is paid with one payment), and a record payemu wrote
 * must never be refused; 1e300 or 2^53 are.
 */
export const MAX_MINOR = Number.MAX_SAFE_INTEGER;

export type RecordSchema = Readonly<Record<string, unknown>>;

/** A time stamp: integer epoch ms from 1970 to the end of year 9999. */
export const timestamp = { type: 'integer', minimum: 0, maximum: MAX_TIMESTAMP_MS } as const;

/** A count or counter: an integer from 0 below 2^31. */
export const count = { type: 'integer', minimum: 0, maximum: MAX_COUNT } as const;

/** Money in minor units: an integer from 0 to MAX_MINOR. */
export const minor = { type: 'integer', minimum: 0, maximum: MAX_MINOR } as const;

/** A non-empty string (ids, references, tokens). */
export const text = { type: 'string', minLength: 1 } as const;

/** Any string, possibly empty (free text). */
export const anyText = { type: 'string' } as const;

export const bool = { type: 'boolean' } as const;

/** A JSON object of anything (metadata, an event's data). */
export const anyObject = { type: 'object' } as const;

/** An ISO 4217 currency code. */
export const currency = { type: 'string', minLength: 3, maxLength: 3, currency: true } as const;

export const mode = { type: 'string', enum: ['test', 'live'] } as const;

export const oneOf = <T extends readonly (string | number)[]>(values: T) => ({ type: 'string', enum: [...values] }) as const;

/** `schema` or null. */
export function nullable(schema: Record<string, unknown>): Record<string, unknown> {
  const type = schema.type as string;
  return { ...schema, type: [type, 'null'], ...(Array.isArray(schema.enum) ? { enum: [...(schema.enum as unknown[]), null] } : {}) };
}

/**
 * A record's schema: `required` fields must be present, `optional` ones may be absent; both
 * must match their schema. Other fields are let through (payemu reads none of them).
 */
export function recordSchema(required: Record<string, unknown>, optional: Record<string, unknown> = {}): RecordSchema {
  return {
    type: 'object',
    required: ['id', ...Object.keys(required).filter((k) => k !== 'id')],
    properties: { id: text, ...required, ...optional },
  };
}

/** The fields of a record of one Source and mode. */
export const owned = { source: text, mode } as const;
