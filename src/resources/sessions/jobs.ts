import { openUntilExpiry } from '../common/expiry.js';
import { Sessions } from './records.js';

/** An open session expires 24 hours after creation (no webhook). */
export const sessionExpiry = openUntilExpiry('session.expired', Sessions);
