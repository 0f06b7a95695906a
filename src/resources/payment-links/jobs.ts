import type { JobKind } from '../../clock/scheduler.js';
import { PaymentLinks, type PaymentLinkRecord } from './records.js';

/** payemu turns a link off when it passes `expires_at`. */
export const linkExpiry: JobKind<PaymentLinkRecord> = {
  kind: 'payment_link.expired',
  collection: PaymentLinks,
  dueAt: (link) => (link.active && link.expires_at !== null ? link.expires_at : undefined),
  since: (link) => link.updated_at,
  run: (tx, link, at) => {
    tx.put(PaymentLinks, { ...link, active: false, updated_at: at });
  },
};
