import { resourceModule, storedCollection } from '../module.js';
import { PaymentMethods } from './records.js';

/** Cards saved by checkouts, charged later by charges and recurring payments (no routes of their own). */
export const paymentMethodsModule = resourceModule('payment-methods', {
  collections: [storedCollection(PaymentMethods)],
});
