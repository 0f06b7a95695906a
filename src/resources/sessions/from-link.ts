import type { Scope } from '../../http/auth.js';
import { Conflict } from '../../http/errors.js';
import { minorToNumber } from '../../lib/money.js';
import type { Transaction } from '../../store/store.js';
import { isUsable, type PaymentLinkRecord } from '../payment-links/records.js';
import { linkTotal } from '../payment-links/service.js';
import type { SessionRecord } from './records.js';
import { createSession } from './service.js';

/** The hosted link page opens a checkout: a session for what the link sells, carrying its metadata. */
export function openCheckout(tx: Transaction, scope: Scope, link: PaymentLinkRecord, now: number): SessionRecord {
  if (!isUsable(link, now)) throw new Conflict('This payment link has been used up or turned off.');
  return createSession(
    tx,
    scope,
    {
      amount: minorToNumber(linkTotal(link, scope)),
      currency: link.currency,
      description: link.title,
      metadata: link.metadata,
      ...(link.success_url ? { success_url: link.success_url } : {}),
      ...(link.cancel_url ? { cancel_url: link.cancel_url } : {}),
      // A recurring link bills the same card later: keep it.
      save_payment_method: link.recurring !== null,
    },
    now,
    { payment_link_id: link.id },
  );
}
