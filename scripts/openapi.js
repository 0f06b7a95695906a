// Writes openapi.json at the package root from the built catalogue (npm run build runs it).
import { writeFileSync } from 'node:fs';
import { EVENT_WIRE, ROUTES } from '../dist/catalogue.js';
import { buildOpenApi } from '../dist/control/openapi.js';

writeFileSync(new URL('../openapi.json', import.meta.url), `${JSON.stringify(buildOpenApi(ROUTES, EVENT_WIRE.webhookPayloads), null, 2)}\n`);
