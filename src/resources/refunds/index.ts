import { resourceModule, storedCollection } from '../module.js';
import { Refunds } from './records.js';
import { refundRoutes } from './routes.js';

/** Refunds of a payment (`/v1/payments/:reference/refunds`); they raise the payments module's `payment.refunded`. */
export const refundsModule = resourceModule('refunds', {
  collections: [storedCollection(Refunds)],
  routes: refundRoutes,
});
