import { resourceModule } from '../module.js';
import { accountRoutes } from './routes.js';

/** The account of the calling key: `GET /v1/me`. */
export const accountModule = resourceModule('account', {
  routes: accountRoutes,
});
