import type { OpenRoute } from '../../http/route.js';
import { pageRoute } from '../html.js';
import { advanceAction, clockPage } from './clock.js';
import { eventPage, resendAction } from './event.js';
import { eventsPage } from './events.js';
import { addFaultAction, clearFaultsAction, faultsPage, removeFaultAction, setChaosFromFaultsPage } from './faults.js';
import { chaosOffAction } from './webhook-chaos.js';
import { invoicePage } from './invoice.js';
import { invoicesPage } from './invoices.js';
import { SCRIPT, asset } from './layout.js';
import { STYLE } from './style.js';
import { overview } from './overview.js';
import { paymentPage } from './payment.js';
import { paymentLinksPage } from './payment-links.js';
import { paymentsPage } from './payments.js';
import { requestsPage } from './requests.js';
import { resetAction, resetPage } from './reset.js';
import { schedulePage } from './schedule.js';
import { schedulesPage } from './schedules.js';
import { BASE, namespaceApp } from './scope.js';

/**
 * A page of the namespace its address names (`?namespace=NAME`): its handler reads and acts on
 * that namespace's app, and its virtual time, as it would the default's.
 */
function inNamespace(handle: OpenRoute['handle']): OpenRoute['handle'] {
  return (ctx) => {
    const app = namespaceApp(ctx);
    return handle(app === ctx.app ? ctx : { ...ctx, app, now: app.clock.now() });
  };
}

const page = (method: 'GET' | 'POST', path: string, handle: OpenRoute['handle']) => pageRoute({ method, path, handle: inNamespace(handle) });

/**
 * The dashboard (docs/dashboard.md): pages for the person at this machine, so no key is asked
 * (the Host check still applies); every POST carries a CSRF token and answers 303 to a page.
 */
export const dashboardPages = [
  page('GET', BASE, overview),
  pageRoute({ method: 'GET', path: `${BASE}/assets/style.css`, handle: (ctx) => asset(ctx.res, 'text/css', STYLE) }),
  pageRoute({ method: 'GET', path: `${BASE}/assets/live.js`, handle: (ctx) => asset(ctx.res, 'text/javascript', SCRIPT) }),
  page('GET', `${BASE}/payments`, paymentsPage),
  page('GET', `${BASE}/payments/:id`, paymentPage),
  page('GET', `${BASE}/schedules`, schedulesPage),
  page('GET', `${BASE}/schedules/:reference`, schedulePage),
  page('GET', `${BASE}/invoices`, invoicesPage),
  page('GET', `${BASE}/invoices/:id`, invoicePage),
  page('GET', `${BASE}/payment-links`, paymentLinksPage),
  page('GET', `${BASE}/events`, eventsPage),
  page('GET', `${BASE}/events/:id`, eventPage),
  page('POST', `${BASE}/events/:id/resend`, resendAction),
  page('GET', `${BASE}/requests`, requestsPage),
  page('GET', `${BASE}/faults`, faultsPage),
  page('POST', `${BASE}/faults`, addFaultAction),
  page('POST', `${BASE}/faults/clear`, clearFaultsAction),
  page('POST', `${BASE}/faults/webhook-chaos`, setChaosFromFaultsPage),
  page('POST', `${BASE}/faults/webhook-chaos/off`, chaosOffAction),
  page('POST', `${BASE}/faults/:id/remove`, removeFaultAction),
  page('GET', `${BASE}/clock`, clockPage),
  page('POST', `${BASE}/clock/advance`, advanceAction),
  page('GET', `${BASE}/reset`, resetPage),
  page('POST', `${BASE}/reset`, resetAction),
];
