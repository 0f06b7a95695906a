import { parseRequestFilter } from '../http/request-journal.js';
import { controlAt } from '../http/route.js';
import { requestList, requestsCleared } from '../schemas/control.js';

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

const requests = controlAt('/_payemu/requests');

/**
 * The request journal of the key's Source and mode (http/request-journal.ts): its `/v1`
 * requests newest first, filtered; DELETE empties it.
 */
export const requestRoutes = [
  requests.get({
    summary: "List the /v1 requests of the key's Source and mode, newest first",
    query: listQuery,
    responses: { 200: requestList },
    handle: ({ app, scope, query }) => ({ status: 200, json: app.requestJournal.list(scope.source.slug, scope.mode, parseRequestFilter(query)) }),
  }),
  requests.delete({
    summary: "Empty the request journal of the key's Source and mode",
    responses: { 200: requestsCleared },
    handle: ({ app, scope }) => ({ status: 200, json: { removed: app.requestJournal.clear({ source: scope.source.slug, mode: scope.mode }) } }),
  }),
];
