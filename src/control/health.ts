import { open } from '../http/route.js';

/** `GET /_payemu/health`: 200 once ready; no key needed (DESIGN.md section 7). */
export const healthRoutes = [open({ method: 'GET', path: '/_payemu/health', handle: () => ({ status: 200, json: { status: 'ok' } }) })];
