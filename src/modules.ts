import { IdempotencyKeys, idempotencyExpiry } from './http/idempotency.js';
import { accountModule } from './resources/account/index.js';
import { chargesModule } from './resources/charges/index.js';
import { invoicesModule } from './resources/invoices/index.js';
import { metaModule } from './resources/meta/index.js';
import { moduleEvents, type ResourceModule, resourceModule, storedCollection, storedJob } from './resources/module.js';
import { paymentLinksModule } from './resources/payment-links/index.js';
import { paymentMethodSessionsModule } from './resources/payment-method-sessions/index.js';
import { paymentMethodsModule } from './resources/payment-methods/index.js';
import { paymentsModule } from './resources/payments/index.js';
import { recurringModule } from './resources/recurring/index.js';
import { refundsModule } from './resources/refunds/index.js';
import { sessionsModule } from './resources/sessions/index.js';
import { taxModule } from './resources/tax/index.js';
import { eventsCollection } from './webhooks/records.js';
import { eventWire } from './schemas/control.js';
import { WebhookChaos } from './webhooks/chaos.js';
import { WebhookDestinations } from './webhooks/destination.js';
import { Faults } from './http/faults.js';
import { outcomesModule } from './resources/outcomes/index.js';

/**
 * The modules of payemu, in one list: a resource joins payemu by a line here (its folder's
 * `index.ts` exports its module: collections, routes, due work, events); src/catalogue.ts makes
 * what is served of them. Besides the resources, modules of payemu's own: the saved answers of
 * `Idempotency-Key` requests (expired after a day), the event log of the webhooks, the faults,
 * the webhook chaos and the webhook destinations set at run time. The order is the store's and the scheduler's, and that of the events
 * (payment.*, recurring.*, invoice.*: the hosted API's table; a new resource's after them).
 *
 * Apart from src/catalogue.ts so that src/types.ts can derive the events' types from it: the
 * catalogue reaches the control plane, which uses the client, which takes its types from there.
 */
export const MODULES = [
  metaModule,
  accountModule,
  sessionsModule,
  paymentsModule,
  paymentMethodsModule,
  refundsModule,
  resourceModule('idempotency', { collections: [storedCollection(IdempotencyKeys)], jobs: [storedJob(idempotencyExpiry)] }),
  resourceModule('webhooks', { collections: [storedCollection(eventsCollection((): readonly string[] => EVENT_NAMES))] }),
  chargesModule,
  recurringModule,
  paymentMethodSessionsModule,
  taxModule,
  invoicesModule,
  paymentLinksModule,
  outcomesModule,
  resourceModule('faults', { collections: [storedCollection(Faults)] }),
  resourceModule('webhook-chaos', { collections: [storedCollection(WebhookChaos)] }),
  resourceModule('webhook-destinations', { collections: [storedCollection(WebhookDestinations)] }),
] as const satisfies readonly ResourceModule[];

/** The webhook events: each name the modules declare, with the JSON Schema of its `data`, in the modules' order. */
export const EVENTS = moduleEvents(MODULES);

/** The events' wire: each webhook's body schema by name, and the event log's answers. */
export const EVENT_WIRE = eventWire(EVENTS);

/** The names of the webhook events, in the catalogue's order (the library exports it). */
export const EVENT_NAMES = EVENT_WIRE.names;
