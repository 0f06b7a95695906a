import { health as healthSchema } from '../../schemas/control.js';
import { operation } from '../operation.js';

/** `GET /_payemu/health`: 200 `{"status":"ok"}` once ready; no key needed. */
export const health = operation({
  method: 'GET',
  path: '/_payemu/health',
  summary: 'Readiness: 200 once payemu serves',
  open: true,
  result: healthSchema,
  run: () => ({ status: 'ok' as const }),
  client: { name: 'health' },
});
