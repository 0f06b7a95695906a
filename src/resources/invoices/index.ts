import { invoiceEvents } from './webhooks.js';
import { resourceModule, storedCollection, storedJob } from '../module.js';
import { invoiceOverdue } from './jobs.js';
import { Invoices } from './records.js';
import { invoiceRoutes } from './routes.js';

/** Invoices: created, sent, paid on their hosted page, overdue after their due date. */
export const invoicesModule = resourceModule('invoices', {
  collections: [storedCollection(Invoices)],
  routes: invoiceRoutes,
  jobs: [storedJob(invoiceOverdue)],
  events: invoiceEvents,
});
