import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouteApp } from './http-app.js';
import type { Scope } from './auth.js';
import type { Reply } from './envelope.js';
import type { SaveResult } from './idempotency.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface OpenContext {
  app: RouteApp;
  req: IncomingMessage;
  res: ServerResponse;
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** Virtual time when the request arrived. */
  now: number;
}

export interface ApiContext<Body = Record<string, unknown>, Query = Record<string, unknown>> extends OpenContext {
  scope: Scope;
  body: Body;
  query: Query & Record<string, unknown>;
  /**
   * Present when the request carries an `Idempotency-Key`: a route whose work spans several
   * transactions calls it inside the last one with the answer it will give, so that the key is
   * saved with that work (idempotency.ts), and answers what it returns.
   */
  saveResult?: SaveResult;
}

interface RouteBase extends RouteDoc {
  method: Method;
  /** The path, `:name` for a parameter segment: `/v1/payments/:reference` (router.ts). */
  path: string;
  /** JSON Schema of the query string (validated with type coercion). */
  query?: object;
}

/**
 * What the OpenAPI document (src/control/openapi.ts) says of a route, beside the schemas the
 * route validates with. Documentation only: the server never reads it.
 */
export interface RouteDoc {
  /** One line: what the operation does. */
  summary?: string;
  /** More, when one line is not enough (Markdown). */
  description?: string;
  /**
   * The answers the route itself gives: status -> JSON Schema of the JSON body (errors: the
   * envelope), or a non-JSON body. The answers every route of its kind can give (400, 401,
   * 403, 413, 415, 422 of its schemas, 429, 500, and 409 of a reused `Idempotency-Key`) are
   * added by the generator.
   */
  responses?: Readonly<Record<number, object | MediaResponse>>;
  /** Query parameters the route reads by hand (list filters, `fields[...]`, `include`). */
  parameters?: readonly QueryParameterDoc[];
  /** The JSON Schema of a path parameter that is not any string (a payment link's integer id), by name. */
  pathParameters?: Readonly<Record<string, object>>;
}

/** An answer that is not JSON (an event stream). */
export interface MediaResponse {
  mediaType: string;
  schema: object;
  description?: string;
}

export interface QueryParameterDoc {
  name: string;
  description?: string;
  schema: object;
  required?: boolean;
  /** An array's schema with `explode: false`: its items comma-separated in one value (`sort=-amount,created_at`). */
  explode?: false;
}

/** A route of the key-authenticated API (/v1 and the control plane). */
export interface ApiRoute extends RouteBase {
  auth: 'key';
  /** JSON Schema of the body; without one, a body is still parsed (400/415) but ignored. */
  body?: object;
  /** The largest body taken, in bytes (default 1 MiB): a snapshot import takes more. */
  bodyLimit?: number;
  /**
   * Reads the body in place of `readJson` (body.ts), with the same answers to what is not JSON:
   * a snapshot import parses its records one at a time as they arrive.
   */
  readBody?: (req: IncomingMessage, limit: number | undefined, app: RouteApp) => Promise<unknown>;
  /** Counted against the rate limit: /v1 yes, /_payemu no. */
  rateLimited: boolean;
  /**
   * false: a POST refuses an `Idempotency-Key` with a 400 (it could not honour it). Every POST
   * of payemu takes the key; a route whose work spans awaits (an advance, a trigger) is
   * replayed too (idempotency.ts).
   */
  idempotent?: boolean;
  /** Also accepts the key as `?key=` (EventSource cannot set headers). */
  keyInQuery?: boolean;
  /**
   * Acts on every namespace (the list of them, dropping one): handed the default namespace's
   * app whatever the key's namespace, which is never made by it.
   */
  anyNamespace?: boolean;
  /** Each route reads its own Body and Query: method syntax keeps the parameter bivariant. */
  handle(ctx: ApiContext<unknown, unknown>): Reply | Promise<Reply>;
}

/** A route anyone may call: health, and the hosted pages (the session id is the capability). */
export interface OpenRoute extends RouteBase {
  auth: 'none';
  /**
   * The answer to this route's path under `/~NAME/` when there is no namespace NAME: a hosted
   * page's own 404 page, as for an id it does not know. Without it, the JSON 404.
   */
  notFound?: Reply;
  handle(ctx: OpenContext): Reply | Promise<Reply>;
}

export type Route = ApiRoute | OpenRoute;

/** Declares /v1 routes: key auth and rate limit. */
export function v1<B = Record<string, unknown>, Q = Record<string, unknown>>(
  route: Omit<ApiRoute, 'auth' | 'rateLimited' | 'handle'> & { handle(ctx: ApiContext<B, Q>): Reply | Promise<Reply> },
): ApiRoute {
  return { ...route, auth: 'key', rateLimited: true };
}

/** Declares control-plane routes (/_payemu): key auth, not rate limited. */
export function control<B = Record<string, unknown>, Q = Record<string, unknown>>(
  route: Omit<ApiRoute, 'auth' | 'rateLimited' | 'handle'> & { handle(ctx: ApiContext<B, Q>): Reply | Promise<Reply> },
): ApiRoute {
  return { ...route, auth: 'key', rateLimited: false };
}

/**
 * The control-plane routes of one path, by method: `const faults = controlAt('/_payemu/faults')`,
 * then `faults.get({...})`, `faults.delete({...})`. For a path several methods share (read, set,
 * clear), written once.
 */
export function controlAt(path: string) {
  const declare =
    (method: Method) =>
    <B = Record<string, unknown>, Q = Record<string, unknown>>(
      route: Omit<ApiRoute, 'auth' | 'rateLimited' | 'handle' | 'method' | 'path'> & { handle(ctx: ApiContext<B, Q>): Reply | Promise<Reply> },
    ): ApiRoute =>
      control<B, Q>({ method, path, ...route });
  return { get: declare('GET'), post: declare('POST'), put: declare('PUT'), delete: declare('DELETE') };
}

export function open(route: Omit<OpenRoute, 'auth'>): OpenRoute {
  return { ...route, auth: 'none' };
}
