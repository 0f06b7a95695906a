import { requestsCleared } from '../../schemas/control.js';
import { byKey, operation } from '../operation.js';

/** `DELETE /_payemu/requests`: empties the request journal of the key's Source and mode; the library answers how many it held. */
export const requestsClear = operation({
  method: 'DELETE',
  path: '/_payemu/requests',
  summary: "Empty the request journal of the key's Source and mode",
  result: requestsCleared,
  run: (app, scope) => ({ removed: app.requestJournal.clear({ source: scope.source.slug, mode: scope.mode }) }),
  client: { name: 'clearRequests' },
  library: {
    at: 'requests.clear',
    args: byKey,
    result: (answer) => answer.removed,
    error: () => {
      throw new TypeError('requests(): that key opens no Source (give a test or live key of the config)');
    },
  },
});
