import type { Minor } from '../../lib/money.js';
import { collection } from '../../store/collection.js';
import type { CardBrand, FailureCode } from './test-cards.js';
import { referenceKey } from './references.js';
import { byScope } from '../../lib/scope-key.js';
import type { OwnedRecord } from './owned.js';

import { PAYMENT_STATUSES, type PaymentStatus } from '../../schemas/payment-status.js';
import { paymentRecordSchema } from './payment-record-schema.js';

export { PAYMENT_STATUSES, type PaymentStatus };

/** Statuses that hold the reference: a new session for it is a 409. */
export const SETTLED_STATUSES: ReadonlySet<PaymentStatus> = new Set(['PAID', 'AUTHORIZED', 'PARTIALLY_REFUNDED', 'REFUNDED']);

/**
 * One payment per reference; `id` is the integer payment id as a string. The store's own shape,
 * not the API's: what has its usual value is left out (a year of recurring billing stores
 * hundreds of thousands of payments, each written to the journal), and the presenters fill it
 * in. Records stored with those fields written out read the same.
 */
export interface PaymentRecord extends OwnedRecord {
  reference: string;
  amount: Minor;
  currency: string;
  status: PaymentStatus;
  /** Absent: `automatic` (see `captureMethod`). */
  capture_method?: 'automatic' | 'manual';
  description?: string;
  customer_email?: string;
  customer_name?: string;
  metadata?: Record<string, unknown>;
  card_last?: string;
  card_brand?: CardBrand | null;
  payment_method?: string;
  failure_code?: FailureCode;
  failure_message?: string;
  session_id?: string;
  /** Set on an off-session charge (`ch_...`). */
  charge_id?: string;
  /** Set on a recurring charge: the schedule's reference. */
  recurring_reference?: string;
  /** Set on an invoice's payment. */
  invoice_id?: string;
  /** Set on a payment made through a payment link. */
  payment_link_id?: string;
  /** Total refunded so far, minor units; absent: none (see `refundedOf`). */
  refunded?: Minor;
  created_at: number;
  /** Absent: `created_at`, the payment unchanged since (see `updatedAt`). */
  updated_at?: number;
  authorized_at?: number;
  /** The hold before a partial capture. */
  authorized_amount?: Minor;
  /** Absent on a paid payment: captured when it was created; on any other, not captured (see `capturedAt`). */
  captured_at?: number;
  voided_at?: number;
}

export const Payments = collection<PaymentRecord>(
  'payments',
  {
    reference: (p) => referenceKey(p.mode, p.reference),
    scope: byScope,
  },
  undefined,
  paymentRecordSchema,
);

/** A recurring charge's description is derived, not stored: a year of billing makes hundreds of
 * thousands of payments, and each would hold its own copy of the sentence. */
export const paymentDescription = (payment: PaymentRecord): string | undefined =>
  payment.description ?? (payment.recurring_reference !== undefined ? `Recurring payment ${payment.recurring_reference}` : undefined);

export const captureMethod = (payment: PaymentRecord): 'automatic' | 'manual' => payment.capture_method ?? 'automatic';

export const refundedOf = (payment: PaymentRecord): Minor => payment.refunded ?? 0;

export const updatedAt = (payment: PaymentRecord): number => payment.updated_at ?? payment.created_at;

/** When the money was taken; undefined while it has not been (authorized, failed, voided, expired). */
export const capturedAt = (payment: PaymentRecord): number | undefined => payment.captured_at ?? (isPaid(payment.status) ? payment.created_at : undefined);

export const isPaid = (status: PaymentStatus) => status === 'PAID' || status === 'PARTIALLY_REFUNDED' || status === 'REFUNDED';
