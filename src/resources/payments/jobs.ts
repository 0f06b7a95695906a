import type { JobKind } from '../../clock/scheduler.js';
import { AUTHORIZATION_LIFETIME_MS } from './capture.js';
import { Payments, updatedAt, type PaymentRecord } from '../common/payment-records.js';

/** A hold not captured within 7 days is released: EXPIRED, no webhook. */
export const authorizationExpiry: JobKind<PaymentRecord> = {
  kind: 'payment.authorization_expired',
  collection: Payments,
  dueAt: (payment) => (payment.status === 'AUTHORIZED' && payment.authorized_at !== undefined ? payment.authorized_at + AUTHORIZATION_LIFETIME_MS : undefined),
  since: updatedAt,
  run: (tx, payment, at) => {
    tx.put(Payments, { ...payment, status: 'EXPIRED', updated_at: at });
  },
};
