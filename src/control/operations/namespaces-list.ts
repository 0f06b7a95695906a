import type { App } from '../../app.js';
import { formatTimestamp } from '../../clock/format.js';
import { namespaceList } from '../../schemas/namespaces.js';
import { clockView } from '../clock.js';
import { operation } from '../operation.js';

/** Collections that hold settings or bookkeeping, not records a test makes: not counted. */
const NOT_COUNTED = new Set(['meta', 'idempotency_keys', 'webhook_chaos', 'webhook_destinations']);

/** `GET /_payemu/namespaces` (docs/namespaces.md): the named namespaces, with any key; the default is not listed. */
export const namespacesList = operation({
  method: 'GET',
  path: '/_payemu/namespaces',
  summary: 'List the named namespaces: when each was made, its clock, and its records counted (any key)',
  anyNamespace: true,
  result: namespaceList,
  run: (app) => ({
    namespaces: app.namespaces.list().map(({ name, createdAt, app: named }) => ({
      name,
      created_at: formatTimestamp(createdAt),
      clock: clockView(named),
      counts: countsOf(named),
    })),
  }),
  client: { name: 'namespaces', result: (result) => result.namespaces },
  library: { at: 'namespaces.list', result: (result) => result.namespaces },
});

/** Records per collection over every Source and mode. */
function countsOf(app: App): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const def of app.collections) if (!NOT_COUNTED.has(def.name)) counts[def.name] = app.store.count(def);
  return counts;
}
