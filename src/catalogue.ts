import type { App } from './app.js';
import { clockRoutes } from './control/clock.js';
import type { JobKind } from './clock/scheduler.js';
import { healthRoutes } from './control/health.js';
import { IdempotencyKeys, idempotencyExpiry } from './http/idempotency.js';
import type { Route } from './http/route.js';
import { cardUpdatePages } from './pages/card-update.js';
import { checkoutPages } from './pages/checkout.js';
import { invoicePages } from './pages/invoice.js';
import { paymentLinkPages } from './pages/payment-link.js';
import { linkExpiry } from './resources/payment-links/jobs.js';
import { PaymentLinks } from './resources/payment-links/records.js';
import { paymentLinkRoutes } from './resources/payment-links/routes.js';
import { invoiceOverdue } from './resources/invoices/jobs.js';
import { Invoices } from './resources/invoices/records.js';
import { invoiceRoutes } from './resources/invoices/routes.js';
import { managePages } from './pages/manage.js';
import { Charges } from './resources/charges/records.js';
import { chargeRoutes } from './resources/charges/routes.js';
import { methodSessionExpiry } from './resources/payment-method-sessions/jobs.js';
import { MethodSessions } from './resources/payment-method-sessions/records.js';
import { recurringBilling } from './resources/recurring/billing.js';
import { Recurring } from './resources/recurring/records.js';
import { recurringRoutes } from './resources/recurring/routes.js';
import { accountRoutes } from './resources/account/routes.js';
import { Meta } from './resources/meta/records.js';
import { PaymentMethods } from './resources/payment-methods/records.js';
import { Payments } from './resources/payments/records.js';
import { paymentRoutes } from './resources/payments/routes.js';
import { sessionExpiry } from './resources/sessions/jobs.js';
import { authorizationExpiry } from './resources/payments/jobs.js';
import { Refunds } from './resources/refunds/records.js';
import { refundRoutes } from './resources/refunds/routes.js';
import { Sessions } from './resources/sessions/records.js';
import { sessionRoutes } from './resources/sessions/routes.js';
import { taxRoutes } from './resources/tax/routes.js';
import type { Collection, StoredRecord } from './store/collection.js';
import { Events } from './webhooks/records.js';
import { WebhookChaos } from './webhooks/chaos.js';
import { webhookChaosRoutes } from './control/webhook-chaos.js';
import { eventRoutes } from './control/events.js';
import { triggerRoutes } from './control/triggers/routes.js';
import { payRoutes } from './control/pay.js';
import { resetRoutes } from './control/reset.js';
import { requestRoutes } from './control/requests.js';
import { openApiRoutes } from './control/openapi.js';

/**
 * The one catalogue of what payemu serves: its collections, its routes (the /v1 API, the
 * control plane, the hosted pages) and the kinds of time-based work. A resource joins payemu
 * by being listed here; test/catalogue.test.ts checks that the lists agree.
 */
export const COLLECTIONS: readonly Collection<StoredRecord>[] = [
  Meta,
  Sessions,
  Payments,
  PaymentMethods,
  Refunds,
  IdempotencyKeys,
  Events,
  Charges,
  Recurring,
  MethodSessions,
  Invoices,
  PaymentLinks,
  WebhookChaos,
] as never;

export const ROUTES: readonly Route[] = [
  ...healthRoutes,
  ...accountRoutes,
  ...sessionRoutes,
  ...paymentRoutes,
  ...refundRoutes,
  ...chargeRoutes,
  ...recurringRoutes,
  ...taxRoutes,
  ...invoiceRoutes,
  ...paymentLinkRoutes,
  ...clockRoutes,
  ...eventRoutes,
  ...triggerRoutes,
  ...payRoutes,
  ...resetRoutes,
  ...webhookChaosRoutes,
  ...requestRoutes,
  ...openApiRoutes(() => ROUTES),
  ...checkoutPages,
  ...cardUpdatePages,
  ...managePages,
  ...invoicePages,
  ...paymentLinkPages,
];

export const JOB_KINDS: readonly JobKind<never, App>[] = [
  sessionExpiry as never,
  authorizationExpiry as never,
  idempotencyExpiry as never,
  recurringBilling as never,
  methodSessionExpiry as never,
  invoiceOverdue as never,
  linkExpiry as never,
];
