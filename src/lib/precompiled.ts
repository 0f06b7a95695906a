import type { ValidateFunction } from 'ajv';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { bundledValidators } from './bundled-validators.js';
import { FORMAT_NAMES, isSafeUrl, KEYWORD_TESTS } from './schemas.js';

/**
 * Validators written as code by `npm run build` (scripts/validators.js, ajv's standalone code)
 * for every schema payemu ships: request bodies, queries and the config. A built payemu
 * validates with them and never loads or runs ajv's compiler for those schemas: loading ajv and
 * compiling the config's schemas took longer than the rest of start-up. Each is found by its
 * kind and its schema's JSON, so a schema that changed since the build (or a run from source,
 * where there is no build) misses and is compiled as before.
 */
export type SchemaKind = 'body' | 'query' | 'config' | 'record';

/** Where the build writes them: one file per schema in dist/lib/validators/, so that a start
 * loads only the validators it uses (the config's two, for one). The path goes through ../lib/
 * so that it also holds from the CLI's bundle in dist/bin/. */
const DIR = new URL('../lib/validators/', import.meta.url);

export const validatorKey = (kind: SchemaKind, schema: object): string => `${kind} ${JSON.stringify(schema)}`;

/** The file name of a schema's validator: a hash of its key. */
export const validatorFile = (kind: SchemaKind, schema: object): string =>
  `${createHash('sha256').update(validatorKey(kind, schema)).digest('hex').slice(0, 20)}.cjs`;

/** A module's shape: a function of the formats and keyword tests its code names. */
export type PrecompiledModule = (formats: Record<string, unknown>, keywords: typeof KEYWORD_TESTS) => ValidateFunction;

const require = createRequire(import.meta.url);

/**
 * The build's validator of `schema`, or undefined (no build, or a schema it does not have): built
 * into the CLI's script (lib/bundled-validators.ts), else read from dist/lib/validators/.
 */
export function precompiled(kind: SchemaKind, schema: object): ValidateFunction | undefined {
  if (import.meta.url.endsWith('.ts')) return undefined; // from source: no build to read
  const file = validatorFile(kind, schema);
  // One built into the CLI's script is part of the build: should it fail, that is a bug to see.
  const bundled = bundledValidators[file];
  if (bundled) return (bundled() as PrecompiledModule)(formats(), KEYWORD_TESTS);
  let factory: PrecompiledModule;
  try {
    factory = require(fileURLToPath(new URL(file, DIR))) as PrecompiledModule;
  } catch {
    return undefined;
  }
  return factory(formats(), KEYWORD_TESTS);
}

let formatTable: Record<string, unknown> | undefined;
/** The formats by name; ajv-formats' are loaded only when a validator that uses one is. */
function formats(): Record<string, unknown> {
  if (formatTable) return formatTable;
  const table: Record<string, unknown> = { url: { type: 'string', validate: isSafeUrl } };
  let full: Record<string, unknown> | undefined;
  for (const name of FORMAT_NAMES) {
    Object.defineProperty(table, name, {
      enumerable: true,
      get: () => (full ??= (require('ajv-formats/dist/formats') as { fullFormats: Record<string, unknown> }).fullFormats)[name],
    });
  }
  return (formatTable = table);
}
