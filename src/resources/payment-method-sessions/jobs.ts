import { openUntilExpiry } from '../common/expiry.js';
import { MethodSessions } from './records.js';

/** A card-update session expires 24 hours after creation, like a checkout session. */
export const methodSessionExpiry = openUntilExpiry('payment_method_session.expired', MethodSessions);
