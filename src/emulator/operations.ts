import type { App } from '../app.js';
import { ApiError } from '../client/errors.js';
import type { AnyOperation, CallInput, LibraryMapping, LibraryMethods, LibraryScope } from '../control/operation.js';
import { OPERATIONS, type Operations } from '../control/operations.js';
import type { Scope } from '../http/auth.js';
import { checkJsonValue } from '../http/body.js';
import { HttpError, Unauthorized } from '../http/errors.js';
import { check, compileBody, compileQuery } from '../http/validation.js';
import { splitKey } from '../lib/namespace-name.js';
import { scopeOf } from './scope.js';

/**
 * The library's methods of the control operations (each entry's `library`), in process: a call
 * runs the entry's `run` directly, as the scope the call names, at the clock's time, with its
 * query and body checked by the entry's schemas as the route checks them. A refusal is reported
 * as the entry says (a RangeError, undefined, the client's ApiError...).
 */
export function libraryMethods(app: App): LibraryMethods<Operations> {
  const methods: Record<string, unknown> = {};
  for (const op of OPERATIONS as readonly AnyOperation[]) if (op.library) place(methods, op.library.at, libraryMethod(app, op, op.library));
  return methods as LibraryMethods<Operations>;
}

function libraryMethod(app: App, op: AnyOperation, library: LibraryMapping<unknown>) {
  const refused = (error: unknown, args: unknown[]): unknown => {
    if (!(error instanceof HttpError) || library.error === undefined) throw error;
    if (library.error === 'as-client') {
      const envelope = error.toJSON();
      throw new ApiError(error.status, envelope, JSON.stringify(envelope));
    }
    return library.error(error, ...args);
  };
  const finish = (result: unknown) => (library.result ? library.result(result) : result);
  const call = (...args: unknown[]): unknown => {
    let result: unknown;
    try {
      const { scope, input = {} } = library.args?.(...args) ?? {};
      result = op.run(app, scopeFor(app, scope), inputOf(op, input), { now: app.clock.now() });
    } catch (error) {
      return refused(error, args);
    }
    if (result instanceof Promise) return result.then(finish, (error: unknown) => refused(error, args));
    return finish(result);
  };
  if (!library.async) return call;
  return (...args: unknown[]) => {
    try {
      return Promise.resolve(call(...args));
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

/** The Scope a library call names: by Source and mode, by key (a key of no Source is a 401), or as the call finds it; else the first Source in test mode. */
function scopeFor(app: App, scope: LibraryScope | undefined): Scope {
  if (scope === undefined) return scopeOf(app);
  if (typeof scope === 'function') return scope(app) ?? scopeOf(app);
  if ('key' in scope) {
    // In a named namespace a key ends in its `~NAME` (as the namespace's `keys` do); another namespace's is no key here.
    const { key, namespace } = scope.key === undefined ? { key: app.config().sources[0]!.test_key, namespace: app.namespace } : splitKey(scope.key);
    const found = namespace === app.namespace ? app.keyring.lookup(key) : undefined;
    if (!found) throw new Unauthorized();
    return found;
  }
  return scopeOf(app, scope);
}

/** The call's input, its query and body checked by the entry's schemas as the route checks them (a 422 when wrong). */
function inputOf(op: AnyOperation, input: CallInput) {
  // What the route's body reader refuses before any schema (a snapshot to import has none).
  if (input.body !== undefined) checkJsonValue(input.body);
  const params = Object.fromEntries(Object.entries(input.params ?? {}).map(([name, value]) => [name, String(value)]));
  const query = op.query ? check(compileQuery(op.query), { ...input.query }) : (input.query ?? {});
  const body = op.body ? check(compileBody(op.body), input.body ?? {}) : (input.body ?? {});
  return { params, query, body };
}

/** Puts `method` at `path` (`'faults.add'`) in `into`; a method and the members under its name (`requests`, `requests.clear`) make one callable object. */
function place(into: Record<string, unknown>, path: string, method: unknown): void {
  const [head, ...rest] = path.split('.') as [string, ...string[]];
  if (rest.length === 0) {
    const members = into[head];
    into[head] = members === undefined ? method : Object.assign(method as object, members);
    return;
  }
  const next = (into[head] ??= {}) as Record<string, unknown>;
  place(next, rest.join('.'), method);
}
