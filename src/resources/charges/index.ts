import { resourceModule, storedCollection } from '../module.js';
import { Charges } from './records.js';
import { chargeRoutes } from './routes.js';

/** Off-session charges of a saved card. */
export const chargesModule = resourceModule('charges', {
  collections: [storedCollection(Charges)],
  routes: chargeRoutes,
});
