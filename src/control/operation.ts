import type { ServerResponse } from 'node:http';
import type { App } from '../app.js';
import type { Mode } from '../config/types.js';
import type { Scope } from '../http/auth.js';
import type { HttpError } from '../http/errors.js';
import type { ApiRoute, Method } from '../http/route.js';
import type { Transaction } from '../store/store.js';

/**
 * A control operation (`/_payemu/...`) is one entry: what it takes and answers (the schemas),
 * and one function, `run(app, scope, input)`. From the entry are derived the HTTP route
 * (operation-route.ts), the client's method (src/client/client.ts) and the library's
 * `Emulator` method (src/emulator/operations.ts); each entry is a file of operations/, listed in
 * operations.ts. See docs/architecture.md, "Control operations".
 */

/** What a run is given: the path's `:params`, the query (validated and coerced) and the body (validated). */
// biome-ignore lint/suspicious/noExplicitAny: by default a part is whatever the caller sends; an entry names its own.
export interface Input<Body = any, Query = any, Params extends string = string> {
  params: Record<Params, string>;
  query: Query;
  body: Body;
}

export interface RunContext {
  /** Virtual time when the call arrived. */
  now: number;
  /**
   * Over HTTP with an `Idempotency-Key`: a run whose work spans several transactions (an
   * advance) calls it inside the last one with its result, so that the key is saved with that
   * work. Absent otherwise; a run that never calls it has its result saved by the route.
   */
  save?: (tx: Transaction, result: unknown) => void;
}

/** Which Source and mode a library call acts as: the first Source in test mode unless `source`/`mode` say otherwise. */
export interface ScopeOption {
  source?: string;
  mode?: Mode;
}

/** Which Source and mode a library call acts as: by name (the first Source in test mode by default), by key, or found by the call itself. */
export type LibraryScope = ScopeOption | { key: string | undefined } | ((app: App) => Scope | undefined);

/** The library's scope of a call made as one key (`{ key }`; without one, the first Source's test key): the faults' and the request journal's methods take it last. */
export const byKey = (options: { key?: string } = {}) => ({ scope: { key: options.key } });

/** The library's scope of a call made as a Source and mode by name (`{ source, mode }`; the first Source in test mode by default): the outcomes' and the webhook chaos's methods take it last. */
export const bySourceAndMode = (options: ScopeOption = {}) => ({ scope: options });

/** What a call of the library or the client gives the operation. */
export interface CallInput {
  params?: Record<string, string | number>;
  query?: Record<string, unknown>;
  /** The body; the client sends a string as it is (JSON text read from a file). */
  body?: unknown;
}

/**
 * The client's method: its name on `PayemuClient`, its arguments as the operation's input, and
 * what it resolves to. `args` and `result` reach the bundled command line as their source text
 * (scripts/build-cli.js, so that a command does not evaluate the server), so they use nothing
 * but their parameters.
 */
export interface ClientMapping<Result> {
  name: string;
  // biome-ignore lint/suspicious/noExplicitAny: each entry types its own arguments.
  args?: (...args: any[]) => CallInput;
  result?: (result: Result) => unknown;
}

/** The library's method: where it sits on the `Emulator` (`'faults.add'`), its arguments as a scope and an input, and what it returns. */
export interface LibraryMapping<Result> {
  at: string;
  // biome-ignore lint/suspicious/noExplicitAny: each entry types its own arguments.
  args?: (...args: any[]) => { scope?: LibraryScope; input?: CallInput };
  result?: (result: Result) => unknown;
  /**
   * A refusal (an `HttpError`) as the library reports it: throw another error, or return what
   * the method answers instead; `'as-client'`: reject with the client's `ApiError`, as a method
   * that was made over HTTP first did.
   */
  // biome-ignore lint/suspicious/noExplicitAny: the method's own arguments, as `args` takes them.
  error?: ((error: HttpError, ...args: any[]) => unknown) | 'as-client';
  /** The method returns a promise even when the run does not (an API that was asynchronous). */
  async?: boolean;
}

export interface OperationSpec<I extends Input = Input, R = unknown> {
  method: Method;
  /** The path, `:name` for a parameter segment: `/_payemu/faults/:id`. */
  path: string;
  /** One line: what the operation does (the OpenAPI summary). */
  summary: string;
  description?: string;
  /** The JSON Schema of a path parameter that is not any string, by name (for the document). */
  pathParameters?: Readonly<Record<string, object>>;
  /** JSON Schemas of the query (validated with type coercion) and of the body. */
  query?: object;
  body?: object;
  /** The largest body taken, in bytes (default 1 MiB). */
  bodyLimit?: number;
  /** Over HTTP, reads the body in place of `readJson` (ApiRoute.readBody). */
  readBody?: ApiRoute['readBody'];
  /** false: a POST refuses an `Idempotency-Key`. By default every POST takes one. */
  idempotent?: boolean;
  /** No key needed (health). */
  open?: true;
  /** Acts on every namespace, with any key, in the default namespace's app (see ApiRoute.anyNamespace). */
  anyNamespace?: true;
  /** The status of a result (default 200) and its JSON Schema. */
  status?: 200 | 201;
  result: object;
  /** The refusals the operation itself gives (404, 409, 422, ...), each in the error envelope. */
  errors?: readonly number[];
  run(app: App, scope: Scope, input: I, context: RunContext): R;
  /**
   * Over HTTP, writes the result as the answer itself, in pieces as the socket takes them (a
   * snapshot's tens of megabytes), in place of one JSON text: the same bytes.
   */
  write?: (result: Awaited<R>, res: ServerResponse, status: number) => Promise<void>;
  /** Over HTTP, awaited after the run and before the answer (the due work a snapshot import left). */
  settle?: (app: App) => Promise<unknown>;
  client?: ClientMapping<Awaited<R>>;
  library?: LibraryMapping<Awaited<R>>;
}

// biome-ignore lint/suspicious/noExplicitAny: an operation of any input and result, as lists hold them.
export type AnyOperation = OperationSpec<any, any>;

/** The client's side of an entry as its type keeps it: the method's name, arguments and result. */
type ClientSide<N extends string, A extends unknown[], X> = [N] extends [never]
  ? unknown
  : // biome-ignore lint/suspicious/noExplicitAny: the result as the run gives it; the mapping's own type is kept in X.
    { client: { name: N; args?: (...args: A) => CallInput; result?: (result: any) => X } };

/** The library's side of an entry as its type keeps it: where, the arguments, the result, what a refusal answers, whether a promise. */
type LibrarySide<P extends string, A extends unknown[], X, E, Async extends boolean> = [P] extends [never]
  ? unknown
  : {
      library: {
        at: P;
        args?: (...args: A) => { scope?: LibraryScope; input?: CallInput };
        // biome-ignore lint/suspicious/noExplicitAny: as ClientSide's.
        result?: (result: any) => X;
        // biome-ignore lint/suspicious/noExplicitAny: the method's own arguments.
        error?: ((error: HttpError, ...args: any[]) => E) | 'as-client';
        async?: Async;
      };
    };

/**
 * Declares a control operation. The function only gives the entry its type: the input from
 * `run`'s annotation, the result from what `run` returns, and the client's and the library's
 * methods from their mappings (their names, arguments and results), which the derived
 * `PayemuClient` and `Emulator` types read.
 */
export function operation<
  I extends Input,
  R,
  const CN extends string = never,
  CA extends unknown[] = [],
  CX = Awaited<R>,
  const LP extends string = never,
  LA extends unknown[] = [],
  LX = Awaited<R>,
  LE = never,
  const LAsync extends boolean = false,
>(
  spec: Omit<OperationSpec<I, R>, 'client' | 'library'> & {
    client?: { name: CN; args?: (...args: CA) => CallInput; result?: (result: Awaited<R>) => CX };
    library?: {
      at: LP;
      args?: (...args: LA) => { scope?: LibraryScope; input?: CallInput };
      result?: (result: Awaited<R>) => LX;
      // biome-ignore lint/suspicious/noExplicitAny: the method's own arguments, as `args` takes them.
      error?: ((error: HttpError, ...args: any[]) => LE) | 'as-client';
      async?: LAsync;
    };
  },
): Omit<OperationSpec<I, R>, 'client' | 'library'> & ClientSide<CN, CA, CX> & LibrarySide<LP, LA, LX, LE, LAsync> {
  return spec as Omit<OperationSpec<I, R>, 'client' | 'library'> & ClientSide<CN, CA, CX> & LibrarySide<LP, LA, LX, LE, LAsync>;
}

/** The path with its `:params` filled in (each escaped): `/_payemu/faults/:id` -> `/_payemu/faults/flt_1`. */
export function pathOf(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));
}

// The methods derived from a list of operations, typed from the entries: the client's by
// `client.name`, the library's nested by `library.at` (`'faults.add'` -> `faults: { add }`).

type UnionToIntersection<U> = (U extends unknown ? (union: U) => void : never) extends (intersection: infer I) => void ? I : never;
// biome-ignore lint/suspicious/noExplicitAny: any run, to read what it returns.
type Ran<O> = O extends { run(...args: any[]): infer R } ? R : never;
// biome-ignore lint/suspicious/noExplicitAny: any mapping, to read its arguments.
type ArgsOf<M> = M extends { args?: (...args: infer A) => any } ? A : [];
// biome-ignore lint/suspicious/noExplicitAny: any mapping, to read what it makes of the result.
type Mapped<O, M> = M extends { result?: (result: any) => infer X } ? X : Awaited<Ran<O>>;
// biome-ignore lint/suspicious/noExplicitAny: any error mapping, to read what it answers instead.
type Instead<M> = M extends { error?: ((...args: any[]) => infer E) | 'as-client' } ? E : never;

type ClientMethod<O> = O extends { client: infer M } ? (...args: ArgsOf<M>) => Promise<Mapped<O, M>> : never;
type LibraryReturn<O, M> = M extends { async?: true }
  ? Promise<Mapped<O, M> | Instead<M>>
  : Ran<O> extends Promise<unknown>
    ? Promise<Mapped<O, M> | Instead<M>>
    : Mapped<O, M> | Instead<M>;
type LibraryMethod<O> = O extends { library: infer M } ? (...args: ArgsOf<M>) => LibraryReturn<O, M> : never;
type Nest<Path extends string, F> = Path extends `${infer Head}.${infer Tail}` ? { [K in Head]: Nest<Tail, F> } : { [K in Path]: F };

/** The client's methods of `Ops`: `addFault(fault)`, ... */
export type ClientMethods<Ops extends readonly unknown[]> = UnionToIntersection<
  { [K in keyof Ops]: Ops[K] extends { client: { name: infer N extends string } } ? { [Name in N]: ClientMethod<Ops[K]> } : never }[number]
>;

/** The library's methods of `Ops`, nested as `library.at` says: `{ faults: { add(fault, options) } }`. */
export type LibraryMethods<Ops extends readonly unknown[]> = UnionToIntersection<
  { [K in keyof Ops]: Ops[K] extends { library: { at: infer P extends string } } ? Nest<P, LibraryMethod<Ops[K]>> : never }[number]
>;
