import { resourceModule, storedCollection, storedJob } from '../module.js';
import { linkExpiry } from './jobs.js';
import { PaymentLinks } from './records.js';
import { paymentLinkRoutes } from './routes.js';

/** Payment links: a hosted page that opens a checkout for what the link sells. */
export const paymentLinksModule = resourceModule('payment-links', {
  collections: [storedCollection(PaymentLinks)],
  routes: paymentLinkRoutes,
  jobs: [storedJob(linkExpiry)],
});
