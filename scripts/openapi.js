// Writes openapi.json at the package root from the built catalogue (npm run build runs it).
import { writeFileSync } from 'node:fs';
import { ROUTES } from '../dist/catalogue.js';
import { buildOpenApi } from '../dist/control/openapi.js';

writeFileSync(new URL('../openapi.json', import.meta.url), `${JSON.stringify(buildOpenApi(ROUTES), null, 2)}\n`);
