import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { RouteApp } from './http-app.js';
import type { Timers } from '../clock/timers.js';
import { AnswerWrites } from './answer-writes.js';
import { readJson } from './body.js';
import { type Reply, send, sendError, setAnswerHeaders } from './envelope.js';
import { actOnFault } from './fault-act.js';
import { faultFor, readBodyForJournal } from './faults.js';
import { BadRequest, HttpError, MethodNotAllowed, NotFound, Unauthorized } from './errors.js';
import type { HostCheck } from './host-check.js';
import { fingerprint, idempotencyKeyOf, runIdempotent } from './idempotency.js';
import type { Caller, Scope } from './auth.js';
import { isNamespaceName } from '../lib/namespace-name.js';
import type { ApiContext, OpenContext, Route } from './route.js';
import type { Recording } from './request-journal.js';
import { parseTarget, RouteTable } from './router.js';
import { checkRequestTarget } from './text.js';
import { check, compileBody, compileQuery } from './validation.js';

/**
 * A request as the routes get it: its target split once (router.ts) and its `:params`; a path
 * under `/~NAME/` (a named namespace's pages and links) is routed without it, NAME in `namespace`.
 */
export type Req = http.IncomingMessage & {
  path: string;
  search: string;
  query: Record<string, unknown>;
  params: Record<string, string>;
  originalUrl: string;
  namespace?: string;
};
type Handler = (req: Req, res: http.ServerResponse) => void;

/**
 * The HTTP server: the routes of the catalogue in a route table (router.ts). `noMatch` and
 * `fail` are the only places a failure becomes a response, and both go through the one
 * envelope writer. A crash inside a route is logged on the bus and answered with a 500; the
 * server keeps serving.
 *
 * A request's work runs synchronously as far as it can (a read answers in the same turn that
 * parsed it) and goes asynchronous only where something awaits: reading a body, a fault's
 * latency, a route that returns a promise.
 */
export function createServer(app: RouteApp, routes: readonly Route[], options: { checkHost?: HostCheck } = {}): http.Server {
  const table = new RouteTable<Handler>();
  const validators: (() => unknown)[] = [];
  for (const route of routes) {
    table.add(route.method, route.path, route.auth === 'key' ? apiHandler(app, route, validators) : openHandler(app, route, validators));
  }
  const noMatch = (req: Req, res: http.ServerResponse) => {
    const path = req.path ?? req.url ?? '/';
    const allowed = table.methodsFor(path);
    sendError(res, allowed.length > 0 ? new MethodNotAllowed(req.method ?? 'GET', allowed) : new NotFound(`No route matches ${req.method} ${path}.`));
  };
  const { checkHost } = options;
  const logged = requestLog(app);
  const answers = new AnswerWrites(app.timers);

  // requireHostHeader off: an HTTP/1.1 request without Host reaches the routes (and gets its
  // 401 or 404 in the envelope) instead of Node's bodiless 400.
  const route = (req: Req, res: http.ServerResponse) => {
    const url = req.url ?? '/';
    checkRequestTarget(url);
    const target = parseTarget(url);
    req.originalUrl = url;
    if (target.path.startsWith('/~')) {
      const end = target.path.indexOf('/', 2);
      req.namespace = target.path.slice(2, end === -1 ? undefined : end);
      target.path = end === -1 ? '/' : target.path.slice(end);
    }
    req.url = target.search === '' ? target.path : target.path + target.search;
    req.path = target.path;
    req.search = target.search;
    req.query = target.query;
    // DNS rebinding (host-check.ts): a Host payemu does not answer to is refused before any route.
    const refused = checkHost?.(req);
    if (refused) return sendError(res, refused);
    const match = table.find(req.method ?? 'GET', target.path);
    if (!match) return noMatch(req, res);
    req.params = match.params;
    match.value(req, res);
  };

  // requireHostHeader off: an HTTP/1.1 request without Host reaches the routes (and gets its
  // 401 or 404 in the envelope) instead of Node's bodiless 400.
  const server = http.createServer({ keepAliveTimeout: 5_000, requireHostHeader: false }, (message, res) => {
    const req = message as Req;
    answers.attach(res);
    if (app.bus.has('request')) logged(res);
    try {
      route(req, res);
    } catch (error) {
      // A route's own failures are answered by the route (settle); this is the target check's
      // 400, or a bug before any route, which must not take the process down.
      fail(app, req, res, error);
    }
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

export function compileInBackground(pending: (() => unknown)[], timers: Timers): void {
  // Background work: `idle()` does not wait for it.
  const next = () => {
    const get = pending.shift();
    if (!get) return;
    try {
      get();
    } catch {
      // Compiled on first use instead (a failed `lazily` keeps no value). A compile that cannot
      // load ajv now (no file descriptor left: EMFILE) must not stop payemu from a timer.
    }
    timers.soon(next, { background: true });
  };
  timers.after(200, next);
}

/** A whole HTTP response with the envelope, for sockets that have no ServerResponse. */
function rawError(status: number, detail: string): string {
  const body = JSON.stringify(new HttpError(status, detail).toJSON());
  return `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

function apiHandler(app: RouteApp, route: Extract<Route, { auth: 'key' }>, validators: (() => unknown)[]): Handler {
  const bodySchema = route.body;
  const querySchema = route.query;
  const validateBody = bodySchema ? lazily(() => compileBody(bodySchema), validators) : undefined;
  const validateQuery = querySchema ? lazily(() => compileQuery(querySchema), validators) : undefined;
  const idempotent = route.method === 'POST' && route.idempotent !== false;
  // A POST that cannot honour a key refuses it rather than run again on a retry.
  const refusesKey = route.method === 'POST' && route.idempotent === false;
  // The request journal records /v1 requests once authenticated (a refusal before is not its
  // scope's). A failure is answered here, so that the entry has the answer; a connection closed
  // unanswered is recorded with no status. Faults act on /v1 requests only too, never on the
  // control plane that sets them.
  const v1 = route.path.startsWith('/v1/');
  const readBody = route.readBody ?? readJson;
  const run = (app: RouteApp, req: Req, res: http.ServerResponse, scope: Scope, query: Record<string, unknown>, raw: unknown): Reply | Promise<Reply> => {
    const body = validateBody ? check<Record<string, unknown>>(validateBody(), raw ?? {}) : {};
    const ctx: ApiContext = { app, req, res, params: req.params, query, body, scope, now: app.clock.now() };
    if (refusesKey && req.headers['idempotency-key'] !== undefined)
      throw new BadRequest(`${req.method} ${route.path} does not take an Idempotency-Key: send it without one.`);
    const key = idempotent ? idempotencyKeyOf(req.headers['idempotency-key']) : undefined;
    if (key === undefined) return route.handle(ctx);
    // The key's 24 hours count from the answer (an advance answers days of virtual time later).
    const print = fingerprint(req.method ?? 'POST', req.path, raw);
    return runIdempotent(
      app.store,
      scope,
      key,
      print,
      ctx.now,
      (saveResult) => route.handle({ ...ctx, saveResult }),
      () => app.clock.now(),
    );
  };
  const readsBody = route.method !== 'GET' && route.method !== 'DELETE';
  // `sent`: the body, when it was read already (a fault reads it as it starts to act).
  const answer = (app: RouteApp, req: Req, res: http.ServerResponse, scope: Scope, sent?: Promise<unknown>): Reply | Promise<Reply> => {
    const query = validateQuery ? check<Record<string, unknown>>(validateQuery(), { ...req.query }) : req.query;
    if (!readsBody) return run(app, req, res, scope, query, undefined);
    return (sent ?? readBody(req, route.bodyLimit, app)).then((raw) => run(app, req, res, scope, query, raw));
  };
  // `app` is the request's namespace's: its rate limits, faults, journal, store and clock.
  const serve = (app: RouteApp, req: Req, res: http.ServerResponse, scope: Scope): void | Promise<void> => {
    if (route.rateLimited) setAnswerHeaders(res, app.rateLimiter.take(scope));
    const fault = v1 ? faultFor(app.store, scope, req.method ?? 'GET', req.path) : undefined;
    if (fault !== undefined) {
      // The body is read as the fault starts to act, not after its wait: a client that gives up
      // during the wait closes the connection, and a body not read by then is gone, from the
      // request (apply, latency) and from the journal. A refusal of it is the route's to answer,
      // if the route runs.
      const sent = readsBody ? readBody(req, route.bodyLimit, app) : readBodyForJournal(req);
      sent.catch(() => {});
      return actOnFault(
        app,
        fault,
        req,
        res,
        sent,
        async () => answer(app, req, res, scope, readsBody ? sent : undefined),
        (error) => report(app, req, error),
      );
    }
    const reply = answer(app, req, res, scope);
    if (reply instanceof Promise) return reply.then((settled) => send(res, settled));
    send(res, reply);
  };
  const begin = (app: RouteApp, req: Req, res: http.ServerResponse, scope: Scope): void => {
    const recording = v1 ? app.requestJournal.start(req, res, scope.source.slug, scope.mode, app.clock.now()) : undefined;
    settle(app, req, res, () => serve(app, req, res, scope), recording);
  };
  return (req, res) => {
    let caller: Caller;
    try {
      caller = app.keyring.authenticate(req, route.keyInQuery ? stringOrUndefined(req.query.key) : undefined);
      if (req.namespace !== caller.namespace && req.namespace !== undefined) throw namespaceMismatch(req.namespace, caller.namespace);
    } catch (error) {
      return fail(app, req, res, error);
    }
    const { scope, namespace } = caller;
    (res as ScopedResponse).scope = scope;
    (res as ScopedResponse).namespace = namespace;
    // The key's namespace is made on its first request; the routes over every namespace act in the default's.
    if (namespace === undefined || route.anyNamespace) return begin(app, req, res, scope);
    // A namespace that could not be made (over --max-namespaces) refuses before any count: a /v1
    // answer still carries the rate limit's headers, of a window not touched.
    const refused = (error: unknown) => {
      if (route.rateLimited) setAnswerHeaders(res, app.rateLimiter.untouched(scope));
      fail(app, req, res, error);
    };
    let found: RouteApp | Promise<RouteApp>;
    try {
      found = app.namespaces.resolve(namespace);
    } catch (error) {
      return refused(error);
    }
    if (found instanceof Promise) found.then((named) => begin(named, req, res, scope), refused);
    else begin(found, req, res, scope);
  };
}

function namespaceMismatch(inPath: string, ofKey: string | undefined): HttpError {
  return new Unauthorized(
    `The path is in namespace "${inPath}" (/~${inPath}/...) but the API key is ${ofKey === undefined ? 'of the default namespace' : `of namespace "${ofKey}"`}: send the key that ends in "~${inPath}".`,
  );
}

/**
 * Runs `work` and answers its failure (`fail`), whether it throws at once or its promise
 * rejects; then ends the journal's recording, once the answer is sent.
 */
function settle(app: RouteApp, req: Req, res: http.ServerResponse, work: () => void | Promise<void>, recording?: Recording): void {
  let pending: void | Promise<void>;
  try {
    pending = work();
  } catch (error) {
    fail(app, req, res, error);
    recording?.end();
    return;
  }
  if (pending === undefined) {
    recording?.end();
    return;
  }
  pending.then(
    () => recording?.end(),
    (error: unknown) => {
      fail(app, req, res, error);
      recording?.end();
    },
  );
}

function openHandler(app: RouteApp, route: Extract<Route, { auth: 'none' }>, validators: (() => unknown)[]): Handler {
  const querySchema = route.query;
  const validateQuery = querySchema ? lazily(() => compileQuery(querySchema), validators) : undefined;
  const serve = (app: RouteApp, req: Req, res: http.ServerResponse): void | Promise<void> => {
    const query = validateQuery ? check<Record<string, unknown>>(validateQuery(), { ...req.query }) : req.query;
    const ctx: OpenContext = { app, req, res, params: req.params, query, now: app.clock.now() };
    const reply = route.handle(ctx);
    if (reply instanceof Promise) return reply.then((settled) => send(res, settled));
    send(res, reply);
  };
  // A page under `/~NAME/` is that namespace's, which must exist: a page never makes one.
  return (req, res) =>
    settle(app, req, res, () => {
      if (req.namespace === undefined) return serve(app, req, res);
      const named = isNamespaceName(req.namespace) ? app.namespaces.find(req.namespace) : undefined;
      if (named) return serve(named, req, res);
      // A hosted page answers its own 404 page, as for an id it does not know.
      if (route.notFound) return send(res, route.notFound);
      throw new NotFound(`There is no namespace "${req.namespace}" in this payemu: a namespace is made by the first request with its key (sk_..._KEY~NAME).`);
    });
}

function fail(app: RouteApp, req: Req, res: http.ServerResponse, error: unknown): void {
  if (!(error instanceof HttpError)) report(app, req, error);
  sendError(res, error);
}

/** A crash inside a route, on the bus. */
function report(app: RouteApp, req: Req, error: unknown): void {
  const failure = error instanceof Error ? error : new Error(String(error));
  app.bus.emit('server.error', { method: req.method ?? '', path: req.path ?? req.url ?? '', error: failure.message, stack: failure.stack });
}

const STARTED = Symbol('payemu.started');

type ScopedResponse = http.ServerResponse & { scope?: { source: { slug: string }; mode: string }; namespace?: string; [STARTED]?: number };

/**
 * The `request` event of each answer, once sent, for the loggers and the terminal UI: `watch(res)`
 * when the request arrives. One listener function serves every response (no closure per request).
 */
function requestLog(app: RouteApp): (res: http.ServerResponse) => void {
  function finished(this: ScopedResponse & { req: Req }) {
    const { req, scope, namespace } = this;
    const heard = {
      method: req.method ?? '',
      path: req.path ?? req.url ?? '',
      status: this.statusCode,
      ms: performance.now() - (this[STARTED] ?? 0),
      source: scope?.source.slug,
      mode: scope?.mode,
    };
    app.bus.emit('request', namespace === undefined ? heard : { ...heard, namespace });
  }
  return (res) => {
    (res as ScopedResponse)[STARTED] = performance.now();
    res.once('finish', finished);
  };
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
