import type { App } from '../app.js';
import { HttpError } from '../http/errors.js';
import { parseRequestFilter } from '../http/request-journal.js';
import { scopeOfKey } from './scope.js';
import type { Emulator, RequestsFilter } from './types.js';

/** `Emulator.requests`: the request journal of the scope a key opens, as `GET /_payemu/requests` shows it. */
export function requestMethods(app: App): Emulator['requests'] {
  return Object.assign(
    (filter: RequestsFilter = {}) => {
      const scope = scopeOfKey(app, filter.key);
      let parsed: ReturnType<typeof parseRequestFilter>;
      try {
        parsed = parseRequestFilter(filter);
      } catch (error) {
        throw error instanceof HttpError ? new RangeError(`requests(): ${error.message}`) : error;
      }
      // A copy: the journal keeps its views, which a test may change in place.
      return structuredClone(app.requestJournal.list(scope.source.slug, scope.mode, parsed));
    },
    {
      clear: (clearOptions: { key?: string } = {}) => {
        const scope = scopeOfKey(app, clearOptions.key);
        return app.requestJournal.clear({ source: scope.source.slug, mode: scope.mode });
      },
    },
  );
}
