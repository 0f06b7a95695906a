import { resourceModule, storedCollection, storedJob } from '../module.js';
import { sessionExpiry } from './jobs.js';
import { Sessions } from './records.js';
import { sessionRoutes } from './routes.js';

/** Checkout sessions: created over the API, paid on the hosted checkout page, expired after a day. */
export const sessionsModule = resourceModule('sessions', {
  collections: [storedCollection(Sessions)],
  routes: sessionRoutes,
  jobs: [storedJob(sessionExpiry)],
});
