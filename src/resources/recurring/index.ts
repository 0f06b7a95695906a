import { recurringEvents } from './webhooks.js';
import { resourceModule, storedCollection, storedJob } from '../module.js';
import { recurringBilling } from './billing.js';
import { Recurring } from './records.js';
import { recurringRoutes } from './routes.js';

/** Recurring payments: schedules that charge a saved card, billed as the clock moves. */
export const recurringModule = resourceModule('recurring', {
  collections: [storedCollection(Recurring)],
  routes: recurringRoutes,
  jobs: [storedJob(recurringBilling)],
  events: recurringEvents,
});
