import { resourceModule } from '../module.js';
import { taxRoutes } from './routes.js';

/** Tax settings and calculation. */
export const taxModule = resourceModule('tax', {
  routes: taxRoutes,
});
