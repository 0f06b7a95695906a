import { formatTimestamp } from '../../clock/format.js';
import type { PaymentMethodSessionDocument } from './wire.js';
import type { MethodSessionRecord } from './records.js';

export const methodCheckoutUrl = (base: string, session: MethodSessionRecord) => `${base}/card-update/${session.id}`;

/** Type `payment-method-sessions`: `recurring_reference`, `checkout_url`, `expires_at`. */
export function presentMethodSession(session: MethodSessionRecord, base: string): PaymentMethodSessionDocument {
  const checkout = methodCheckoutUrl(base, session);
  return {
    data: {
      id: session.id,
      type: 'payment-method-sessions',
      attributes: { recurring_reference: session.recurring_reference, checkout_url: checkout, expires_at: formatTimestamp(session.expires_at) },
      links: { checkout },
    },
  };
}
