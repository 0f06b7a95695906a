import { open } from '../http/route.js';

/** `GET /_payemu/health`: 200 `{"status":"ok"}` once ready; no key needed. */
export const healthRoutes = [open({ method: 'GET', path: '/_payemu/health', handle: () => ({ status: 200, json: { status: 'ok' } }) })];
