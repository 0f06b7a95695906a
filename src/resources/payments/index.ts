import { paymentEvents } from '../common/payment-webhooks.js';
import { resourceModule, storedCollection, storedJob } from '../module.js';
import { Payments } from '../common/payment-records.js';
import { authorizationExpiry } from './jobs.js';
import { paymentRoutes } from './routes.js';

/** Payments: read, captured and voided over the API; recorded by checkouts, charges, recurring billing and invoices (src/resources/common/ holds their record, which those share). */
export const paymentsModule = resourceModule('payments', {
  collections: [storedCollection(Payments)],
  routes: paymentRoutes,
  jobs: [storedJob(authorizationExpiry)],
  events: paymentEvents,
});
