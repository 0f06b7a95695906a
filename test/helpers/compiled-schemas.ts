import type { ValidateFunction } from 'ajv';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCacheFile } from './cache-file.js';

/**
 * The drift guard's validators (helpers/openapi.ts), one per schema of the OpenAPI document it
 * is asked about, compiled once for the whole suite rather than once per test process.
 *
 * Why: ajv compiling the answers' schemas was about a tenth of a short test file's CPU time (a
 * quarter of a second), paid again in each of the hundred and more test processes that use the
 * helpers' client. A validator ajv compiled is written out as ajv's standalone code (the same
 * checks, the same `errors`) in node_modules/.cache/payemu-drift/, under a hash of the document,
 * ajv's version and its options: the next process `require`s it. A change to a schema changes
 * the document, hence the hash: a stale validator is never used.
 */
export function compiledSchemas(doc: object): (pointer: string) => ValidateFunction {
  const require = createRequire(import.meta.url);
  const AJV_VERSION = (require('ajv/package.json') as { version: string }).version;
  const OPTIONS = { strict: false, allErrors: true, validateSchema: false, code: { source: true } } as const;
  const base = createHash('sha256')
    .update(JSON.stringify([AJV_VERSION, OPTIONS]))
    .update(JSON.stringify(doc))
    .digest('hex')
    .slice(0, 32);
  const dir = fileURLToPath(new URL(`../../node_modules/.cache/payemu-drift/${base}/`, import.meta.url));
  const compiled = new Map<string, ValidateFunction>();
  let ajv: import('ajv/dist/2020.js').Ajv2020 | undefined;

  // ajv itself is loaded on a miss only: a process whose every validator is cached never builds it.
  const compile = (pointer: string): { validate: ValidateFunction; code: string } => {
    if (!ajv) {
      const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
      const formats = require('ajv-formats') as { default?: unknown };
      const addFormats = (formats.default ?? formats) as (ajv: InstanceType<typeof Ajv2020>) => void;
      ajv = new Ajv2020({ ...OPTIONS, code: { ...OPTIONS.code } });
      addFormats(ajv);
      ajv.addSchema(doc, 'openapi.json');
    }
    const validate = ajv.compile({ $ref: `openapi.json#${pointer}` });
    const standalone = require('ajv/dist/standalone/index.js') as { default: (ajv: object, validate: ValidateFunction) => string };
    return { validate, code: standalone.default(ajv, validate) };
  };

  return (pointer) => {
    let validate = compiled.get(pointer);
    if (validate) return validate;
    const file = path.join(dir, `${createHash('sha256').update(pointer).digest('hex').slice(0, 32)}.cjs`);
    try {
      validate = require(file) as ValidateFunction;
    } catch {
      const made = compile(pointer);
      validate = made.validate;
      writeCacheFile(file, made.code);
    }
    compiled.set(pointer, validate);
    return validate;
  };
}
