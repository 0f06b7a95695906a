import type { App } from '../app.js';
import type { Mode } from '../config/types.js';
import { formatTimestamp } from '../clock/format.js';
import { installConfigFaults, putConfigFaults } from '../http/faults.js';
import { control } from '../http/route.js';
import { Meta } from '../resources/meta/records.js';
import { INVOICE_COUNTER_PREFIX, invoiceCounter } from '../resources/invoices/records.js';
import { WebhookChaos } from '../webhooks/chaos.js';
import { WebhookDestinations } from '../webhooks/destination.js';
import { resetReport } from '../schemas/control.js';
import { inScope } from './scope-records.js';

/**
 * `POST /_payemu/reset` (docs/control-plane.md): empties the key's Source in the key's mode;
 * `{"all": true}` empties everything and puts the virtual clock back to real time (in a named
 * namespace: all of it, its clock back to where the default namespace's stands).
 * Payment and payment-link ids keep counting, so an id is never reused; invoice numbers start
 * again at INV-000001 in the emptied scope (its invoices are gone, so no number repeats).
 * Webhook chaos and webhook destinations stay (settings, like the clock); `DELETE /_payemu/webhook-chaos`
 * and `DELETE /_payemu/webhook` end them.
 * Faults are emptied too, and the config's faults of the emptied scope put back afresh.
 */
export const resetRoutes = [
  control<{ all?: boolean }>({
    method: 'POST',
    path: '/_payemu/reset',
    summary: 'Empty the key\'s Source and mode, or everything with `{"all": true}`',
    responses: { 200: resetReport },
    body: { type: 'object', properties: { all: { type: 'boolean' } } },
    handle: ({ app, scope, body }) => ({ status: 200, json: resetScope(app, { source: scope.source.slug, mode: scope.mode }, body.all === true) }),
  }),
];

/** Empties one Source and mode (or everything and the clock, with `all`); the dashboard's reset does the same. */
export function resetScope(app: App, scope: { source: string; mode: Mode }, all: boolean) {
  const invoiceNumbers = `counter:${invoiceCounter(scope.source, scope.mode)}`;
  let counters = 0;
  const cleared = app.store.clear((record, collection) => {
    // Webhook chaos and destinations are how payemu behaves, not data: they must outlive the resets of a test suite.
    if (collection === WebhookChaos.name || collection === WebhookDestinations.name) return false;
    if (collection === Meta.name) {
      // The clock and the id counters stay; the invoice numbering of the scope restarts.
      const id = (record as { id: string }).id;
      const restart = all ? id.startsWith(`counter:${INVOICE_COUNTER_PREFIX}`) : id === invoiceNumbers;
      if (restart) counters++;
      return restart;
    }
    if (all) return true;
    return inScope(record, scope.source, scope.mode);
  });
  const removed = cleared - counters;
  // The request journal (memory only) of the scope, or all of them, goes too.
  app.requestJournal.clear(all ? undefined : scope);
  if (all) {
    // The default namespace's clock goes back to real time; a named one's to where the default's stands.
    if (app.namespace === undefined) app.clock.restore({ offsetMs: 0, frozenAt: app.clock.frozen() ? app.clock.now() - app.clock.offsetMs() : null });
    else app.clock.restore(app.namespaces.root().clock.state());
    app.store.transaction((tx) => tx.put(Meta, { id: 'clock', clock: app.clock.state() }));
  }
  // The config's faults are in force from start: an emptied scope starts with them again.
  const now = app.clock.now();
  const source = app.config().sources.find((s) => s.slug === scope.source);
  if (all) installConfigFaults(app.store, app.config(), now);
  else if (source) app.store.transaction((tx) => putConfigFaults(tx, source, [scope.mode], now));
  return { removed, scope: all ? ('all' as const) : scope, now: formatTimestamp(app.clock.now()) };
}
