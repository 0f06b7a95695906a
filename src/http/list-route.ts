import type { RouteApp } from './http-app.js';
import type { Collection, StoredRecord } from '../store/collection.js';
import type { DocumentQuery } from './document-query.js';
import { listEnvelope, listParameters, parseListQuery, runListQuery, type ListSpec } from './list-query.js';
import { v1, type ApiRoute, type RouteDoc } from './route.js';
import { scopeKey } from '../lib/scope-key.js';

/** How a list shows its page: each record alone, or the whole page as a compound document. */
type ListPresenter<T> =
  | { present: (record: T, base: string, fields: readonly string[] | undefined, now: number) => unknown }
  | {
      /** `data` of the page and, when `include` asks, the `included` resources. */
      document: (page: T[], query: DocumentQuery, context: { app: RouteApp; base: string; now: number }) => { data: unknown[]; included?: unknown[] };
    };

/**
 * `GET` of a paginated list of the key's Source and mode: the collection needs a `scope` index
 * (`source:mode`); `spec` says what may be filtered, sorted, picked with `fields[...]` and
 * followed with `include`.
 */
export function listRoute<T extends StoredRecord>(
  path: string,
  summary: string,
  options: { collection: Collection<T>; spec: ListSpec<T> } & Pick<RouteDoc, 'description' | 'responses'> & ListPresenter<T>,
): ApiRoute {
  const { collection, spec, description, responses } = options;
  return v1({
    method: 'GET',
    path,
    summary,
    description,
    responses,
    parameters: listParameters(spec),
    handle: ({ app, scope, query, now }) => {
      const q = parseListQuery(query, spec);
      const list = runListQuery(app.store.find(collection, 'scope', scopeKey(scope.source.slug, scope.mode)), q, spec);
      const base = app.baseUrl();
      const document =
        'document' in options
          ? options.document(list.page, q.document, { app, base, now })
          : { data: list.page.map((record) => options.present(record, base, q.fields, now)) };
      const { data, included } = document as { data: unknown[]; included?: unknown[] };
      return {
        status: 200,
        json: { data, ...(included ? { included } : {}), ...listEnvelope(base, path, query, list, q as never) },
      };
    },
  });
}
