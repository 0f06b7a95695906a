import { resourceModule, storedCollection, storedJob } from '../module.js';
import { methodSessionExpiry } from './jobs.js';
import { MethodSessions } from './records.js';
import { methodSessionRoutes } from './routes.js';

/** Payment-method sessions: the hosted page where a customer replaces a recurring payment's card. */
export const paymentMethodSessionsModule = resourceModule('payment-method-sessions', {
  collections: [storedCollection(MethodSessions)],
  routes: methodSessionRoutes,
  jobs: [storedJob(methodSessionExpiry)],
});
