import type { Mode } from '../../config/types.js';
import { type Input, operation } from '../operation.js';
import { readSnapshotBody } from '../snapshot-body.js';
import { StreamedSnapshot } from '../snapshot-streamed.js';
import { importStreamed } from '../snapshot-swap.js';
import { allQuery, importReport, importSnapshot, SNAPSHOT_BODY_LIMIT, type SnapshotDocument } from '../snapshot.js';

/**
 * `POST /_payemu/snapshot` (docs/control-plane.md): replaces the key's Source and mode (or
 * everything and the clock, `?all=true`) with a snapshot, checked whole first. Over HTTP the
 * work the snapshot left due runs before the answer, as an advance's does (`settle`); the
 * library's `snapshot.import(document)` replaces the scope the document names and returns at once.
 */
export const snapshotImport = operation({
  method: 'POST',
  path: '/_payemu/snapshot',
  summary: "Replace the key's Source and mode (or everything and the clock, with `?all=true`) with a snapshot",
  query: allQuery,
  // Checked by hand (importSnapshot), to say exactly what is wrong and where.
  body: {
    type: 'object',
    additionalProperties: true,
    description: 'A snapshot, as `GET /_payemu/snapshot` answers it (the `Snapshot` schema); every record in it is checked.',
  },
  bodyLimit: SNAPSHOT_BODY_LIMIT,
  // Parsed record by record as it arrives, never held whole (snapshot-body.ts).
  readBody: readSnapshotBody,
  result: importReport,
  errors: [422],
  run: (app, scope, { query, body }: Input<unknown, { all?: boolean }>) =>
    body instanceof StreamedSnapshot
      ? importStreamed(app, app.collections, body, query.all ? 'all' : scope)
      : importSnapshot(app, app.collections, body, query.all ? 'all' : scope),
  // In the scheduler's batches, each at its own time, answering other requests between them.
  settle: (app) => app.scheduler.runDue(() => app.clock.now()),
  client: {
    name: 'importSnapshot',
    /** A document, or its JSON text or bytes as read from a file; `all` for an `all` snapshot. */
    args: (snapshot: object | string | Uint8Array, options: { all?: boolean } = {}) => ({ body: snapshot, query: { all: options.all || undefined } }),
  },
  library: {
    at: 'snapshot.import',
    args: (document: SnapshotDocument) => {
      const named = (document as { scope?: unknown } | null)?.scope;
      if (named === 'all' || named === null || typeof named !== 'object') return { input: { body: document, query: { all: true } } };
      const { source, mode } = named as { source?: unknown; mode?: unknown };
      return { scope: { source: String(source), mode: mode as Mode }, input: { body: document, query: {} } };
    },
  },
});
