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
import { BASE } from './scope.js';

/**
 * The dashboard (docs/dashboard.md): pages for the person at this machine, so no key is asked
 * (the Host check still applies); every POST carries a CSRF token and answers 303 to a page.
 */
export const dashboardPages = [
  pageRoute({ method: 'GET', path: BASE, handle: overview }),
  pageRoute({ method: 'GET', path: `${BASE}/assets/style.css`, handle: (ctx) => asset(ctx.res, 'text/css', STYLE) }),
  pageRoute({ method: 'GET', path: `${BASE}/assets/live.js`, handle: (ctx) => asset(ctx.res, 'text/javascript', SCRIPT) }),
  pageRoute({ method: 'GET', path: `${BASE}/payments`, handle: paymentsPage }),
  pageRoute({ method: 'GET', path: `${BASE}/payments/:id`, handle: paymentPage }),
  pageRoute({ method: 'GET', path: `${BASE}/schedules`, handle: schedulesPage }),
  pageRoute({ method: 'GET', path: `${BASE}/schedules/:reference`, handle: schedulePage }),
  pageRoute({ method: 'GET', path: `${BASE}/invoices`, handle: invoicesPage }),
  pageRoute({ method: 'GET', path: `${BASE}/invoices/:id`, handle: invoicePage }),
  pageRoute({ method: 'GET', path: `${BASE}/payment-links`, handle: paymentLinksPage }),
  pageRoute({ method: 'GET', path: `${BASE}/events`, handle: eventsPage }),
  pageRoute({ method: 'GET', path: `${BASE}/events/:id`, handle: eventPage }),
  pageRoute({ method: 'POST', path: `${BASE}/events/:id/resend`, handle: resendAction }),
  pageRoute({ method: 'GET', path: `${BASE}/requests`, handle: requestsPage }),
  pageRoute({ method: 'GET', path: `${BASE}/faults`, handle: faultsPage }),
  pageRoute({ method: 'POST', path: `${BASE}/faults`, handle: addFaultAction }),
  pageRoute({ method: 'POST', path: `${BASE}/faults/clear`, handle: clearFaultsAction }),
  pageRoute({ method: 'POST', path: `${BASE}/faults/webhook-chaos`, handle: setChaosFromFaultsPage }),
  pageRoute({ method: 'POST', path: `${BASE}/faults/webhook-chaos/off`, handle: chaosOffAction }),
  pageRoute({ method: 'POST', path: `${BASE}/faults/:id/remove`, handle: removeFaultAction }),
  pageRoute({ method: 'GET', path: `${BASE}/clock`, handle: clockPage }),
  pageRoute({ method: 'POST', path: `${BASE}/clock/advance`, handle: advanceAction }),
  pageRoute({ method: 'GET', path: `${BASE}/reset`, handle: resetPage }),
  pageRoute({ method: 'POST', path: `${BASE}/reset`, handle: resetAction }),
];
