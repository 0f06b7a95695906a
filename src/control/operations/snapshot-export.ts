import { allQuery, exportSnapshot, plainSnapshot, snapshotSchema } from '../snapshot.js';
import { type Input, operation, type ScopeOption } from '../operation.js';
import { writeSnapshotAnswer } from '../snapshot-text.js';

/**
 * `GET /_payemu/snapshot` (docs/control-plane.md): the whole state of the key's Source and mode
 * (`?all=true`: of everything, with the clock) as one JSON document. The collections are the
 * catalogue's (`app.collections`), walked generically: a collection added later is in snapshots
 * without a change here.
 */
export const snapshotExport = operation({
  method: 'GET',
  path: '/_payemu/snapshot',
  summary: "Export the key's Source and mode (or everything and the clock, with `?all=true`) as a snapshot",
  query: allQuery,
  result: snapshotSchema,
  run: (app, scope, { query }: Input<never, { all?: boolean }>) => exportSnapshot(app, app.collections, query.all ? 'all' : scope, true),
  // Over HTTP, written record by record as the socket takes it (snapshot-text.ts).
  write: writeSnapshotAnswer,
  client: { name: 'exportSnapshot', args: (options: { all?: boolean } = {}) => ({ query: { all: options.all || undefined } }) },
  library: {
    at: 'snapshot.export',
    args: (options: ScopeOption & { all?: boolean } = {}) => ({ scope: options.all ? {} : options, input: { query: { all: options.all } } }),
    result: plainSnapshot,
  },
});
