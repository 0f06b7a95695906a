import type { Collection, StoredRecord } from '../store/collection.js';
import { listEnvelope, parseListQuery, runListQuery, type ListSpec } from './list-query.js';
import { v1, type ApiRoute } from './route.js';
import { scopeKey } from '../lib/scope-key.js';

/**
 * `GET` of a paginated list of the key's Source and mode: the collection needs a `scope` index
 * (`source:mode`); `spec` says what may be filtered, sorted and picked with `fields[...]`.
 */
export function listRoute<T extends StoredRecord>(options: {
  path: string;
  collection: Collection<T>;
  spec: ListSpec<T>;
  present: (record: T, base: string, fields: readonly string[] | undefined, now: number) => unknown;
}): ApiRoute {
  const { path, collection, spec, present } = options;
  return v1({
    method: 'GET',
    path,
    handle: ({ app, scope, query, now }) => {
      const q = parseListQuery(query, spec);
      const list = runListQuery(app.store.find(collection, 'scope', scopeKey(scope.source.slug, scope.mode)), q, spec);
      const base = app.baseUrl();
      return {
        status: 200,
        json: { data: list.page.map((record) => present(record, base, q.fields, now)), ...listEnvelope(base, path, query, list, q as never) },
      };
    },
  });
}
