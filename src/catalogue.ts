import type { App } from './app.js';
import type { JobKind } from './clock/scheduler.js';
import { eventStreamRoute } from './control/events.js';
import { openApiRoutes } from './control/openapi.js';
import { operationRoute } from './control/operation-route.js';
import { OPERATIONS } from './control/operations.js';
import type { Route } from './http/route.js';
import { cardUpdatePages } from './pages/card-update.js';
import { checkoutPages } from './pages/checkout.js';
import { faviconPages } from './pages/favicon.js';
import { invoicePages } from './pages/invoice.js';
import { managePages } from './pages/manage.js';
import { paymentLinkPages } from './pages/payment-link.js';
import { dashboardPages } from './pages/dashboard/routes.js';
import type { Collection, StoredRecord } from './store/collection.js';
import { EVENT_WIRE, MODULES } from './modules.js';

/**
 * The one catalogue of what payemu serves: the modules of src/modules.ts (a resource joins payemu
 * by a line there: its folder's `index.ts` holds its collections, routes, due work and events),
 * a control operation by a line in src/control/operations.ts, a hosted page by a line in
 * PAGE_ROUTES. test/catalogue.test.ts checks that everything belongs to one module and that the
 * lists agree. COLLECTIONS, ROUTES and JOB_KINDS are derived from them, as are the event names
 * and the webhooks (src/modules.ts).
 */
export { EVENT_NAMES, EVENT_WIRE, EVENTS, MODULES } from './modules.js';

/**
 * The `/_payemu/` control plane (src/control/): a route for each control operation (listed in
 * src/control/operations.ts), the live event stream and the OpenAPI document.
 */
export const CONTROL_ROUTES: readonly Route[] = controlRoutes();

function controlRoutes(): Route[] {
  const routes: Route[] = OPERATIONS.map(operationRoute);
  // The stream goes before `/_payemu/events/:id`, which would take "stream" for an id (the first route that matches wins).
  routes.splice(
    routes.findIndex((route) => route.path === '/_payemu/events/:id'),
    0,
    eventStreamRoute,
  );
  return [...routes, ...openApiRoutes(() => ROUTES, EVENT_WIRE.webhookPayloads)];
}

/** The hosted HTML pages (src/pages/). */
export const PAGE_ROUTES: readonly Route[] = [...checkoutPages, ...cardUpdatePages, ...managePages, ...invoicePages, ...paymentLinkPages, ...faviconPages];

/** The web dashboard's pages and forms (src/pages/dashboard/), all under /_payemu/dashboard, no key. */
export const DASHBOARD_ROUTES: readonly Route[] = dashboardPages;

export const COLLECTIONS: readonly Collection<StoredRecord>[] = MODULES.flatMap((m) => m.collections);

export const ROUTES: readonly Route[] = [...CONTROL_ROUTES, ...MODULES.flatMap((m) => m.routes), ...PAGE_ROUTES, ...DASHBOARD_ROUTES];

export const JOB_KINDS: readonly JobKind<StoredRecord, App>[] = MODULES.flatMap((m) => m.jobs);
