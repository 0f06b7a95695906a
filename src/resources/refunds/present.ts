import { formatTimestamp } from '../../clock/format.js';
import { pickAttributes, type ResourceShape } from '../../http/document-query.js';
import { formatMinor } from '../../lib/money.js';
import { refundedOf, type PaymentRecord } from '../common/payment-records.js';
import { refundAttributes, type RefundAttributes, type RefundMeta } from './wire.js';
import type { RefundRecord } from './records.js';
import { refundable } from './service.js';
import { attributeNames } from '../../schemas/wire.js';

/** Type `refunds`: what `fields[refunds]` may name. */
export const refundShape: ResourceShape = { type: 'refunds', attributes: attributeNames(refundAttributes) };

/** A refund; `fields` (from `fields[refunds]`) keeps only those attributes. */
export function presentRefund(refund: RefundRecord, fields?: readonly string[]) {
  const attributes: RefundAttributes = {
    amount: formatMinor(refund.amount),
    reason: refund.reason ?? null,
    status: refund.status,
    created_at: formatTimestamp(refund.created_at),
  };
  return { id: refund.id, type: 'refunds', attributes: pickAttributes(attributes, fields, refundShape) };
}

/** The `meta.payment` of refund answers: every amount a string. */
export function refundMeta(payment: PaymentRecord): RefundMeta {
  return {
    payment: {
      reference: payment.reference,
      status: payment.status,
      amount: formatMinor(payment.amount),
      total_refunded: formatMinor(refundedOf(payment)),
      refundable_amount: formatMinor(refundable(payment)),
    },
  };
}
