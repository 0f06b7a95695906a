/** payemu's HTTP client: see client.ts. */
export { createClient, type Answer, type ClientOptions, type PayemuClient } from './client.js';
export { ApiError, Unreachable, envelopeError, type ErrorObject } from './errors.js';
export type * from './types.js';
