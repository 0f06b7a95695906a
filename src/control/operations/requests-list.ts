import { parseRequestFilter } from '../../http/request-journal.js';
import { requestList } from '../../schemas/control.js';
import { type Input, operation } from '../operation.js';

const listQuery = {
  type: 'object',
  properties: {
    method: { type: 'string', pattern: '^[A-Za-z]{1,16}$', description: 'Only requests of this method (any letter case).' },
    path: {
      type: 'string',
      pattern: '^/',
      description: 'Only requests to this path; `*` stands for one segment, `**` for the rest (`/v1/payments/*/refunds`).',
    },
    status: { type: 'string', pattern: '^[1-5]([0-9]{2}|[xX]{2})$', description: 'Only answers with this status (`422`) or class (`4xx`).' },
    since: { type: 'string', description: 'Only requests that arrived after this timestamp (exclusive).' },
    limit: { type: 'integer', minimum: 1, maximum: 1000, description: 'How many to list (default 100); `total` counts every match.' },
  },
} as const;

/** What `GET /_payemu/requests` filters on. */
export interface RequestFilter {
  method?: string;
  /** `*` stands for one segment, `**` for the rest. */
  path?: string;
  /** `422` or `4xx`. */
  status?: string | number;
  /** Exclusive timestamp. */
  since?: string;
  limit?: number | string;
}

/**
 * `GET /_payemu/requests`: the request journal of the key's Source and mode (http/request-journal.ts),
 * its `/v1` requests newest first, filtered. The library's `requests(filter)` names the journal by `key`.
 */
export const requestsList = operation({
  method: 'GET',
  path: '/_payemu/requests',
  summary: "List the /v1 requests of the key's Source and mode, newest first",
  query: listQuery,
  result: requestList,
  run: (app, scope, { query }: Input<never, RequestFilter>) => app.requestJournal.list(scope.source.slug, scope.mode, parseRequestFilter(query)),
  client: { name: 'requests', args: (filter: RequestFilter = {}) => ({ query: { ...filter } }) },
  library: {
    at: 'requests',
    args: ({ key, ...filter }: RequestFilter & { key?: string } = {}) => ({ scope: { key }, input: { query: filter } }),
    // A copy: the journal keeps its views, which a test may change in place.
    result: (list) => structuredClone(list),
    error: (error) => {
      if (error.status === 401) throw new TypeError('requests(): that key opens no Source (give a test or live key of the config)');
      throw new RangeError(`requests(): ${error.message}`);
    },
  },
});
