import { faultSchema } from '../lib/faults.js';
import type { SourceConfig } from './types.js';

/** The largest product id: ids are counters, kept below 2^31 as every stored counter is. */
export const MAX_PRODUCT_ID = 2_147_483_647;

/** The highest rate limit a Source may report or enforce: a million requests a minute. */
export const MAX_RATE_LIMIT_PER_MINUTE = 1_000_000;

/**
 * JSON Schema of payemu.config.json (after merging onto the defaults). Every number has a
 * minimum and a maximum (test/config-limits.test.ts walks the schema to check it), and is finite
 * (load.ts: 1e309 reads as Infinity).
 */
const tax = {
  type: 'object',
  additionalProperties: false,
  required: ['enabled', 'name', 'rate', 'inclusive'],
  properties: {
    enabled: { type: 'boolean' },
    name: { type: 'string', minLength: 1, maxLength: 255 },
    rate: { type: 'number', minimum: 0, maximum: 100 },
    inclusive: { type: 'boolean' },
  },
} as const;

const product = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'price', 'currency'],
  properties: {
    id: { type: 'integer', minimum: 1, maximum: MAX_PRODUCT_ID },
    name: { type: 'string', minLength: 1, maxLength: 255 },
    price: { type: 'number', exclusiveMinimum: 0, maximum: 999999.99, money: true },
    currency: { type: 'string', currency: true },
  },
} as const;

export const sourceSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'slug',
    'name',
    'test_key',
    'live_key',
    'webhook_secret',
    'currency',
    'rate_limit_per_minute',
    'enforce_rate_limit',
    'ip_whitelist',
    'webhook_url',
    'tax',
    'products',
  ],
  properties: {
    slug: {
      type: 'string',
      pattern: '^[a-z0-9][a-z0-9_-]{0,62}$',
      patternMessage: 'The {field} field must be lower-case letters, digits, "-" or "_" (at most 63).',
    },
    name: { type: 'string', minLength: 1, maxLength: 255 },
    test_key: {
      type: 'string',
      pattern: '^sk_test_[A-Za-z0-9_]+$',
      patternMessage: 'The {field} field must start with "sk_test_" followed by letters, digits or underscores.',
    },
    live_key: {
      type: 'string',
      pattern: '^sk_live_[A-Za-z0-9_]+$',
      patternMessage: 'The {field} field must start with "sk_live_" followed by letters, digits or underscores.',
    },
    webhook_secret: {
      type: 'string',
      pattern: '^whsec_[A-Za-z0-9_]+$',
      patternMessage: 'The {field} field must start with "whsec_" followed by letters, digits or underscores.',
    },
    currency: { type: 'string', currency: true },
    rate_limit_per_minute: { type: 'integer', minimum: 1, maximum: MAX_RATE_LIMIT_PER_MINUTE },
    enforce_rate_limit: { type: 'boolean' },
    ip_whitelist: { type: 'array', items: { type: 'string', ipOrCidr: true } },
    // The same rule as every URL a user gives (lib/schemas.ts isSafeUrl); null: no endpoint.
    webhook_url: { type: ['string', 'null'], format: 'url' },
    tax,
    products: { type: 'array', items: product },
    faults: { type: 'array', items: faultSchema },
  },
} as const;

/** A Source's fields that have no default: its identity and its credentials. */
export const SOURCE_FIELDS_WITHOUT_DEFAULT = ['slug', 'test_key', 'live_key', 'webhook_secret'] as const;

/**
 * What a new Source (a slug the defaults do not have) takes for each field it leaves out: its
 * slug as its name, USD, 6000 requests a minute reported but not enforced, no IP whitelist, no
 * webhook endpoint, tax turned off, an empty catalogue. `tax` merges one level down.
 */
export function newSourceDefaults(slug: string): Omit<SourceConfig, (typeof SOURCE_FIELDS_WITHOUT_DEFAULT)[number]> {
  return {
    name: slug,
    currency: 'USD',
    rate_limit_per_minute: 6000,
    enforce_rate_limit: false,
    ip_whitelist: [],
    webhook_url: null,
    tax: { enabled: false, name: 'Tax', rate: 0, inclusive: false },
    products: [],
  };
}

export const configSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['merchant', 'sources'],
  properties: {
    $schema: { type: 'string' },
    defaults: { type: 'boolean' },
    merchant: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: { name: { type: 'string', minLength: 1, maxLength: 255 } },
    },
    sources: { type: 'array', minItems: 1, items: sourceSchema },
  },
} as const;

/** A user's file may leave out whatever the defaults provide; only a Source's slug is required. */
export const userConfigSchema = {
  ...configSchema,
  required: [],
  properties: {
    ...configSchema.properties,
    merchant: { ...configSchema.properties.merchant, required: [] },
    sources: {
      type: 'array',
      items: {
        ...sourceSchema,
        required: ['slug'],
        properties: { ...sourceSchema.properties, tax: { ...tax, required: [] } },
      },
    },
  },
} as const;
