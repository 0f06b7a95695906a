import type { ValidateFunction } from 'ajv';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
  const text = JSON.stringify(doc);
  const base = createHash('sha256')
    .update(JSON.stringify([AJV_VERSION, OPTIONS]))
    .update(text)
    .digest('hex')
    .slice(0, 32);
  const dir = fileURLToPath(new URL(`../../node_modules/.cache/payemu-drift/${base}/`, import.meta.url));
  const compiled = new Map<string, ValidateFunction>();
  let ajv: { compile(schema: object): ValidateFunction } | undefined;
  let standalone: ((ajv: object, validate: ValidateFunction) => string) | undefined;

  // ajv itself is loaded on a miss only: a process whose every validator is cached never builds it.
  const compile = (pointer: string): ValidateFunction => {
    if (!ajv) {
      const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
      const formats = require('ajv-formats') as { default?: unknown };
      const addFormats = (formats.default ?? formats) as (ajv: InstanceType<typeof Ajv2020>) => void;
      const instance = new Ajv2020({ ...OPTIONS, code: { ...OPTIONS.code } });
      addFormats(instance);
      instance.addSchema(JSON.parse(text) as object, 'openapi.json');
      const code = require('ajv/dist/standalone/index.js') as { default: (ajv: object, validate: ValidateFunction) => string };
      ajv = instance;
      standalone = (a, v) => code.default(a, v);
    }
    return ajv.compile({ $ref: `openapi.json#${pointer}` });
  };

  return (pointer) => {
    let validate = compiled.get(pointer);
    if (validate) return validate;
    const file = path.join(dir, `${createHash('sha256').update(pointer).digest('hex').slice(0, 32)}.cjs`);
    try {
      validate = require(file) as ValidateFunction;
    } catch {
      validate = compile(pointer);
      try {
        // Written whole under a name of its own, then renamed: a process reading it sees all or nothing.
        fs.mkdirSync(dir, { recursive: true });
        const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
        fs.writeFileSync(temporary, standalone!(ajv!, validate));
        fs.renameSync(temporary, file);
      } catch {
        // A cache that cannot be written only costs the next process a compile.
      }
    }
    compiled.set(pointer, validate);
    return validate;
  };
}
