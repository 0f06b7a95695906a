import { formatTimestamp } from '../clock/format.js';
import { control } from '../http/route.js';
import { Meta } from '../resources/meta/records.js';

/**
 * `POST /_payemu/reset` (DESIGN.md section 7): empties the key's Source in the key's mode;
 * `{"all": true}` empties everything and puts the virtual clock back to real time.
 * Counters (payment ids, invoice numbers) keep counting, so ids are never reused.
 */
export const resetRoutes = [
  control<{ all?: boolean }>({
    method: 'POST',
    path: '/_payemu/reset',
    body: { type: 'object', properties: { all: { type: 'boolean' } } },
    handle: ({ app, scope, body }) => {
      const prefix = `${scope.source.slug}:${scope.mode}:`;
      const removed = app.store.clear((record, collection) => {
        if (collection === Meta.name) return false;
        if (body.all) return true;
        const r = record as { source?: string; mode?: string; id: string };
        // Records without their own source field are keyed `source:mode:...`.
        return r.source !== undefined ? r.source === scope.source.slug && r.mode === scope.mode : r.id.startsWith(prefix);
      });
      if (body.all) {
        app.clock.restore({ offsetMs: 0, frozenAt: app.clock.frozen() ? app.clock.now() - app.clock.offsetMs() : null });
        app.store.transaction((tx) => tx.put(Meta, { id: 'clock', clock: app.clock.state() }));
      }
      return { status: 200, json: { removed, scope: body.all ? 'all' : { source: scope.source.slug, mode: scope.mode }, now: formatTimestamp(app.clock.now()) } };
    },
  }),
];
