import http from 'node:http';
import type { Duplex } from 'node:stream';
import polka, { type Request } from 'polka';
import type { App } from '../app.js';
import { stopwatch } from '../clock/clock.js';
import type { Timers } from '../clock/timers.js';
import { readJson } from './body.js';
import { type Reply, send, sendError } from './envelope.js';
import { type FaultRecord, faultFor, faultReply } from './faults.js';
import { HttpError, MethodNotAllowed, NotFound } from './errors.js';
import type { HostCheck } from './host-check.js';
import { fingerprint, idempotencyKeyOf, runIdempotent } from './idempotency.js';
import type { Scope } from './auth.js';
import type { ApiContext, OpenContext, Route } from './route.js';
import { noteOf } from './request-note.js';
import { checkRequestTarget } from './text.js';
import { check, compileBody, compileQuery } from './validation.js';

type Req = Request;

/**
 * The HTTP server: polka routes built from the route catalogue. polka's `onError` and
 * `onNoMatch` are the only places a failure becomes a response, and both go through the one
 * envelope writer. A crash inside a route is logged on the bus and answered with a 500; the
 * server keeps serving.
 */
export function createServer(app: App, routes: readonly Route[], options: { checkHost?: HostCheck } = {}): http.Server {
  const patterns = routes.map((route) => ({ route, regex: patternToRegex(route.path) }));

  const noMatch = (req: Req, res: http.ServerResponse) => {
    const path = req.path ?? req.url ?? '/';
    const allowed = [...new Set(patterns.filter((p) => p.regex.test(path)).map((p) => p.route.method))];
    const error = allowed.length > 0 ? new MethodNotAllowed(req.method ?? 'GET', allowed) : new NotFound(`No route matches ${req.method} ${path}.`);
    logOnFinish(app, req, res);
    sendError(res, error);
  };
  const router = polka({
    onError: (error: unknown, req, res) => fail(app, req as Req, res, error),
    onNoMatch: (req, res) => noMatch(req as Req, res),
  });
  // DNS rebinding (host-check.ts): a Host payemu does not answer to is refused before any route.
  const { checkHost } = options;
  if (checkHost)
    router.use((req, res, next) => {
      const refused = checkHost(req);
      if (!refused) return next();
      logOnFinish(app, req, res);
      sendError(res, refused);
    });

  const validators: (() => unknown)[] = [];
  for (const { route, regex } of patterns) {
    const handler = route.auth === 'key' ? apiHandler(app, route, validators) : openHandler(app, route, validators);
    const method = route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete';
    // polka matches paths in any letter case (`/V1/Sessions`); payemu's paths are exact, as
    // the 405 check above is, so a path in another case is answered as no route.
    router[method](route.path, (req: Req, res: http.ServerResponse) => (regex.test(req.path) ? handler(req, res) : noMatch(req, res)));
  }

  // polka's own listener defers each request with setImmediate; calling its handler directly
  // saves that turn of the event loop on every request.
  // requireHostHeader off: an HTTP/1.1 request without Host reaches the routes (and gets its
  // 401 or 404 in the envelope) instead of Node's bodiless 400.
  const server = http.createServer({ keepAliveTimeout: 5_000, requireHostHeader: false }, (req, res) => {
    try {
      checkRequestTarget(req.url ?? '/');
    } catch (error) {
      logOnFinish(app, req as Req, res);
      return sendError(res, error);
    }
    router.handler(req as Req, res, undefined as never);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    // Unparseable HTTP (bad request line, oversized headers): answer in the envelope when we can.
    if (!socket.writable || error.code === 'ECONNRESET') return socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    socket.end(rawError(status, status === 431 ? 'The request headers are too large.' : 'The request is not valid HTTP.'));
  });
  // CONNECT (a proxy tunnel) never reaches the router; without this Node drops the connection.
  server.on('connect', (_req, socket: Duplex) => socket.end(rawError(405, 'The CONNECT method is not supported: payemu is not a proxy.')));
  server.once('listening', () => compileInBackground(validators, app.timers));
  return server;
}

/**
 * A route's validator is compiled on first use, not before the server listens: ajv takes
 * milliseconds per schema, and a dozen of them would hold up the readiness line. Once the
 * server listens, the ones not used yet are compiled in the background, one per turn of the
 * event loop, so that first requests rarely pay for it either. The background work starts a
 * moment after listening: the first ajv instance takes ~100 ms to build, and the requests that
 * come right after the readiness line (a health check, a script's first call) should not wait.
 */
function lazily<T>(make: () => T, pending: (() => unknown)[]): () => T {
  let value: T | undefined;
  const get = () => (value ??= make());
  pending.push(get);
  return get;
}

function compileInBackground(pending: (() => unknown)[], timers: Timers): void {
  // Background work: `idle()` does not wait for it.
  const next = () => {
    const get = pending.shift();
    if (!get) return;
    get();
    timers.soon(next, { background: true });
  };
  timers.after(200, next);
}

/** A whole HTTP response with the envelope, for sockets that have no ServerResponse. */
function rawError(status: number, detail: string): string {
  const body = JSON.stringify(new HttpError(status, detail).toJSON());
  return `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

function apiHandler(app: App, route: Extract<Route, { auth: 'key' }>, validators: (() => unknown)[]) {
  const bodySchema = route.body;
  const querySchema = route.query;
  const validateBody = bodySchema ? lazily(() => compileBody(bodySchema), validators) : undefined;
  const validateQuery = querySchema ? lazily(() => compileQuery(querySchema), validators) : undefined;
  // The request journal records /v1 requests once authenticated (a refusal before is not its
  // scope's). A failure is answered here rather than by polka's onError, so that the entry has
  // the answer; a connection closed unanswered is recorded with no status. Faults act on /v1
  // requests only too, never on the control plane that sets them.
  const v1 = route.path.startsWith('/v1/');
  const answer = async (req: Req, res: http.ServerResponse, scope: Scope): Promise<Reply> => {
    const query = validateQuery ? check<Record<string, unknown>>(validateQuery(), { ...req.query }) : req.query;
    const raw = req.method === 'GET' || req.method === 'DELETE' ? undefined : await readJson(req, route.bodyLimit);
    const body = validateBody ? check<Record<string, unknown>>(validateBody(), raw ?? {}) : {};
    const ctx: ApiContext = { app, req, res, params: req.params, query, body, scope, now: app.clock.now() };
    const key = route.method === 'POST' && route.idempotent !== false ? idempotencyKeyOf(req.headers['idempotency-key']) : undefined;
    if (key === undefined) return route.handle(ctx);
    return runIdempotent(app.store, scope, key, fingerprint(req.method, req.path, raw), ctx.now, () => route.handle(ctx));
  };
  const serve = async (req: Req, res: http.ServerResponse, scope: Scope) => {
    if (route.rateLimited) {
      for (const [name, value] of Object.entries(app.rateLimiter.take(scope))) res.setHeader(name, value);
    }
    const fault = v1 ? faultFor(app.store, scope, req.method, req.path) : undefined;
    if (fault === undefined) return send(res, await answer(req, res, scope));
    await actOnFault(app, fault, req, res, () => answer(req, res, scope));
  };
  return async (req: Req, res: http.ServerResponse) => {
    logOnFinish(app, req, res);
    const scope = app.keyring.authenticate(req, route.keyInQuery ? stringOrUndefined(req.query.key) : undefined);
    (res as ScopedResponse).scope = scope;
    if (!v1) return serve(req, res, scope);
    const recording = app.requestJournal.start(req, res, scope.source.slug, scope.mode, app.clock.now());
    try {
      await serve(req, res, scope);
    } catch (error) {
      fail(app, req, res, error);
    } finally {
      recording.end();
    }
  };
}

/**
 * A fault acts: it waits its latency (real time), then answers its status without running the
 * request, or closes the connection unanswered, or (`apply`) runs the request for real and
 * replaces only its answer. A fault with neither status nor drop delays the real answer.
 */
async function actOnFault(app: App, fault: FaultRecord, req: Req, res: http.ServerResponse, answer: () => Promise<Reply>): Promise<void> {
  noteOf(req).fault = fault.id;
  if (fault.latency_ms > 0) await app.timers.track(wait(app, fault.latency_ms));
  if (fault.status === null && !fault.drop) return send(res, await answer());
  if (fault.apply) {
    // The work is done (stored, webhooks sent, the Idempotency-Key's result saved); its answer is lost.
    try {
      await answer();
    } catch (error) {
      if (!(error instanceof HttpError)) report(app, req, error);
    }
  }
  if (fault.drop) return void req.socket.destroy();
  send(res, faultReply(fault));
}

/** Resolves after `ms` real milliseconds, or at once when payemu stops. */
function wait(app: App, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      timer.cancel();
      resolve();
    };
    const timer = app.timers.after(ms, () => {
      app.shutdown.removeEventListener('abort', stop);
      resolve();
    });
    app.shutdown.addEventListener('abort', stop, { once: true });
  });
}

function openHandler(app: App, route: Extract<Route, { auth: 'none' }>, validators: (() => unknown)[]) {
  const querySchema = route.query;
  const validateQuery = querySchema ? lazily(() => compileQuery(querySchema), validators) : undefined;
  return async (req: Req, res: http.ServerResponse) => {
    logOnFinish(app, req, res);
    const query = validateQuery ? check<Record<string, unknown>>(validateQuery(), { ...req.query }) : req.query;
    const ctx: OpenContext = { app, req, res, params: req.params, query, now: app.clock.now() };
    send(res, await route.handle(ctx));
  };
}

function fail(app: App, req: Req, res: http.ServerResponse, error: unknown): void {
  if (!(error instanceof HttpError)) report(app, req, error);
  sendError(res, error);
}

/** A crash inside a route, on the bus. */
function report(app: App, req: Req, error: unknown): void {
  const failure = error instanceof Error ? error : new Error(String(error));
  app.bus.emit('server.error', { method: req.method ?? '', path: req.path ?? req.url ?? '', error: failure.message, stack: failure.stack });
}

type ScopedResponse = http.ServerResponse & { scope?: { source: { slug: string }; mode: string } };

function logOnFinish(app: App, req: Req, res: http.ServerResponse): void {
  if (!app.bus.has('request')) return;
  const elapsed = stopwatch();
  res.once('finish', () => {
    const scope = (res as ScopedResponse).scope;
    app.bus.emit('request', {
      method: req.method ?? '',
      path: req.path ?? req.url ?? '',
      status: res.statusCode,
      ms: elapsed(),
      source: scope?.source.slug,
      mode: scope?.mode,
    });
  });
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `/v1/payments/:reference` -> a regex for 405 detection. */
function patternToRegex(pattern: string): RegExp {
  const source = pattern
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}
