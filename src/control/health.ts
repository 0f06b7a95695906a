import { open } from '../http/route.js';
import { health } from '../schemas/control.js';

/** `GET /_payemu/health`: 200 `{"status":"ok"}` once ready; no key needed. */
export const healthRoutes = [
  open({
    method: 'GET',
    path: '/_payemu/health',
    summary: 'Readiness: 200 once payemu serves',
    responses: { 200: health },
    handle: () => ({ status: 200, json: { status: 'ok' } }),
  }),
];
