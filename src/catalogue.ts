import type { App } from './app.js';
import type { JobKind } from './clock/scheduler.js';
import { eventStreamRoute } from './control/events.js';
import { openApiRoutes } from './control/openapi.js';
import { operationRoute } from './control/operation-route.js';
import { OPERATIONS } from './control/operations.js';
import { IdempotencyKeys, idempotencyExpiry } from './http/idempotency.js';
import type { Route } from './http/route.js';
import { cardUpdatePages } from './pages/card-update.js';
import { checkoutPages } from './pages/checkout.js';
import { invoicePages } from './pages/invoice.js';
import { managePages } from './pages/manage.js';
import { paymentLinkPages } from './pages/payment-link.js';
import { dashboardPages } from './pages/dashboard/routes.js';
import { accountModule } from './resources/account/index.js';
import { chargesModule } from './resources/charges/index.js';
import { invoicesModule } from './resources/invoices/index.js';
import { metaModule } from './resources/meta/index.js';
import { type ResourceModule, resourceModule, storedCollection, storedJob } from './resources/module.js';
import { paymentLinksModule } from './resources/payment-links/index.js';
import { paymentMethodSessionsModule } from './resources/payment-method-sessions/index.js';
import { paymentMethodsModule } from './resources/payment-methods/index.js';
import { paymentsModule } from './resources/payments/index.js';
import { recurringModule } from './resources/recurring/index.js';
import { refundsModule } from './resources/refunds/index.js';
import { sessionsModule } from './resources/sessions/index.js';
import { taxModule } from './resources/tax/index.js';
import type { Collection, StoredRecord } from './store/collection.js';
import { Events } from './webhooks/records.js';
import { WebhookChaos } from './webhooks/chaos.js';
import { Faults } from './http/faults.js';
import { outcomesModule } from './resources/outcomes/index.js';

/**
 * The one catalogue of what payemu serves. A resource joins payemu by being listed in MODULES
 * (its folder's `index.ts`: collections, routes, due work, events); a control operation by a line in
 * src/control/operations.ts, a hosted page by a line in PAGE_ROUTES. test/catalogue.test.ts checks that
 * everything belongs to one module and that the lists agree. Besides the resources, two modules
 * of payemu's own: the saved answers of `Idempotency-Key` requests (expired after a day) and
 * the event log of the webhooks. The order is the store's and the scheduler's.
 */
export const MODULES: readonly ResourceModule[] = [
  metaModule,
  accountModule,
  sessionsModule,
  paymentsModule,
  paymentMethodsModule,
  refundsModule,
  resourceModule('idempotency', { collections: [storedCollection(IdempotencyKeys)], jobs: [storedJob(idempotencyExpiry)] }),
  resourceModule('webhooks', { collections: [storedCollection(Events)] }),
  chargesModule,
  recurringModule,
  paymentMethodSessionsModule,
  taxModule,
  invoicesModule,
  paymentLinksModule,
  outcomesModule,
  resourceModule('faults', { collections: [storedCollection(Faults)] }),
  resourceModule('webhook-chaos', { collections: [storedCollection(WebhookChaos)] }),
];

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
  return [...routes, ...openApiRoutes(() => ROUTES)];
}

/** The hosted HTML pages (src/pages/). */
export const PAGE_ROUTES: readonly Route[] = [...checkoutPages, ...cardUpdatePages, ...managePages, ...invoicePages, ...paymentLinkPages];

/** The web dashboard's pages and forms (src/pages/dashboard/), all under /_payemu/dashboard, no key. */
export const DASHBOARD_ROUTES: readonly Route[] = dashboardPages;

export const COLLECTIONS: readonly Collection<StoredRecord>[] = MODULES.flatMap((m) => m.collections);

export const ROUTES: readonly Route[] = [...CONTROL_ROUTES, ...MODULES.flatMap((m) => m.routes), ...PAGE_ROUTES, ...DASHBOARD_ROUTES];

export const JOB_KINDS: readonly JobKind<StoredRecord, App>[] = MODULES.flatMap((m) => m.jobs);
