import { formatTimestamp } from '../../clock/format.js';
import { formatMinor } from '../../lib/money.js';
import type { PaymentRecord } from '../payments/records.js';
import type { RefundRecord } from './records.js';
import { refundable } from './service.js';

export function presentRefund(refund: RefundRecord) {
  return {
    id: refund.id,
    type: 'refunds',
    attributes: {
      amount: formatMinor(refund.amount),
      reason: refund.reason ?? null,
      status: refund.status,
      created_at: formatTimestamp(refund.created_at),
    },
  };
}

/** SPEC.md's `meta.payment` of refund answers: every amount a string. */
export function refundMeta(payment: PaymentRecord) {
  return {
    payment: {
      reference: payment.reference,
      status: payment.status,
      amount: formatMinor(payment.amount),
      total_refunded: formatMinor(payment.refunded),
      refundable_amount: formatMinor(refundable(payment)),
    },
  };
}
