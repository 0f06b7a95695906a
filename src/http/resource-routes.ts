import type { Transaction } from '../store/store.js';
import { AnswerCache } from './answer-cache.js';
import { type DocumentQuery, documentParameters, isPlain, parseDocumentQuery, type ResourceShape, sparseResource } from './document-query.js';
import type { Reply } from './envelope.js';
import { type ApiContext, type ApiRoute, type Method, type RouteDoc, v1 } from './route.js';
import { attributeNames, errors } from '../schemas/wire.js';

/**
 * The shapes of a resource's `/v1` routes besides a list (`listRoute`): a read of one document
 * (`readRoute`; `sourceResourceRoute` for the one resource of its type a Source has), and an
 * action that changes records in one transaction and answers with them. Each route still says
 * its path, summary and answers; these write the rest once.
 */

/**
 * `GET path`: one document of `shape`'s type, its `fields[...]` (and `include`) checked and
 * parsed. The answers: `document`, 400 and 422 of the query, and 404 where the path names a
 * record (`:id`, `:reference`).
 *
 * Either `read` makes the document, or `load` finds the one record it is made of and `present`
 * makes it: then the plain answer (no `fields`, no `include`), which must depend on that record
 * and the base URL alone, is serialized once per version of the record (answer-cache.ts).
 */
export function readRoute<R extends object>(
  path: string,
  summary: string,
  options: { shape: ResourceShape; document: object; pathParameters?: RouteDoc['pathParameters'] } & (
    | { read(ctx: ApiContext, query: DocumentQuery): object }
    | { load(ctx: ApiContext): R; present(record: R, ctx: ApiContext, query: DocumentQuery): object }
  ),
): ApiRoute {
  const { shape, document } = options;
  const responses: NonNullable<RouteDoc['responses']> = path.includes('/:')
    ? { 200: document, 400: errors, 404: errors, 422: errors }
    : { 200: document, 400: errors, 422: errors };
  const cache = new AnswerCache();
  return v1({
    method: 'GET',
    path,
    summary,
    parameters: documentParameters(shape),
    ...(options.pathParameters ? { pathParameters: options.pathParameters } : {}),
    responses,
    handle: (ctx): Reply => {
      const query = parseDocumentQuery(ctx.query, shape);
      if ('read' in options) return { status: 200, json: options.read(ctx, query) };
      const record = options.load(ctx);
      if (!isPlain(query)) return { status: 200, json: options.present(record, ctx, query) };
      return { status: 200, raw: cache.json(record, ctx.app.baseUrl(), () => options.present(record, ctx, query)) };
    },
  });
}

/**
 * `GET path` of the one resource of its type a Source has (`/v1/me`, `/v1/tax/settings`): its id
 * is the key's Source's slug, its `self` link the path, its attributes (named by the
 * `attributes` schema) what `read` gives, less what `fields[<type>]` leaves out.
 */
export function sourceResourceRoute(
  path: string,
  summary: string,
  options: { type: string; attributes: { properties: Readonly<Record<string, object>> }; document: object; read(ctx: ApiContext): Record<string, unknown> },
): ApiRoute {
  const { type, document } = options;
  const shape: ResourceShape = { type, attributes: attributeNames(options.attributes) };
  return readRoute(path, summary, {
    shape,
    document,
    read: (ctx, query) => {
      const resource = { id: ctx.scope.source.slug, type, attributes: options.read(ctx), links: { self: `${ctx.app.baseUrl()}${path}` } };
      return { data: sparseResource(resource, query, shape) };
    },
  });
}

/**
 * `method path` with a body of `body`: `run` does the work in one store transaction (a throw
 * changes nothing) and returns the JSON of the route's success status (the one 2xx of
 * `responses`).
 */
export function actionRoute<B = Record<string, unknown>>(
  method: Method,
  path: string,
  summary: string,
  options: {
    body?: object;
    responses: NonNullable<RouteDoc['responses']>;
    pathParameters?: RouteDoc['pathParameters'];
    run(tx: Transaction, ctx: ApiContext<B>): unknown;
  },
): ApiRoute {
  const { body, responses, pathParameters, run } = options;
  const status = Number(Object.keys(responses).find((code) => code.startsWith('2')));
  return v1<B>({
    method,
    path,
    summary,
    ...(body ? { body } : {}),
    ...(pathParameters ? { pathParameters } : {}),
    responses,
    handle: (ctx) => ({ status, json: ctx.app.store.transaction((tx) => run(tx, ctx)) }),
  });
}
