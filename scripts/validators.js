// Writes dist/lib/validators/ (npm run build runs it): the validator of every request body, query,
// config and stored-record schema payemu ships, compiled by ajv into code (ajv's standalone code), one file per
// schema, so that a built payemu validates without loading ajv's compiler (see
// src/lib/precompiled.ts).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { COLLECTIONS, ROUTES } from '../dist/catalogue.js';
import { configSchema, userConfigSchema } from '../dist/config/schema.js';
import { validatorFile } from '../dist/lib/precompiled.js';
import { createAjv } from '../dist/lib/schemas.js';

const require = createRequire(import.meta.url);
const standaloneCode = require('ajv/dist/standalone').default;
const dir = new URL('../dist/lib/validators/', import.meta.url);
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir, { recursive: true });

// Bodies and the config as sent, queries coerced from strings: the options of validation.ts
// and config/load.ts.
const plain = createAjv({ source: true });
const coerced = createAjv({ coerceTypes: true, source: true });
const written = new Set();
const write = (kind, schema) => {
  if (!schema) return;
  const file = validatorFile(kind, schema);
  if (written.has(file)) return;
  written.add(file);
  const code = standaloneCode(kind === 'query' ? coerced : plain, (kind === 'query' ? coerced : plain).compile(schema));
  // The code sets module.exports; here it sets that of the function's own `module`, which
  // the function returns. `formats` and `keywords` are the names the code uses (createAjv).
  const text = `// Written by scripts/validators.js (npm run build). Do not edit.
'use strict';
module.exports = function validator(formats, keywords) {
  const module = { exports: {} };
  ${code}
  return module.exports;
};
`;
  fs.writeFileSync(new URL(file, dir), text);
};
write('config', userConfigSchema);
write('config', configSchema);
for (const route of ROUTES) {
  write('body', route.body);
  write('query', route.query);
}
// Stored records, as a snapshot import checks them (src/control/snapshot-records.ts).
for (const def of COLLECTIONS) write('record', def.schema);
