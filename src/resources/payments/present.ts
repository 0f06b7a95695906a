import { pickAttributes, type ResourceShape } from '../../http/document-query.js';
import { urlSegment } from '../../lib/text.js';
import { formatOptionalTimestamp, formatTimestamp } from '../../clock/format.js';
import { formatMinor } from '../../lib/money.js';
import { refundShape } from '../refunds/present.js';
import { paymentAttributes as paymentAttributesSchema, type PaymentAttributes, type PaymentSummary } from '../../schemas/payments.js';
import { attributeNames } from '../../schemas/wire.js';
import { captureMethod, capturedAt, isPaid, paymentDescription, updatedAt, type PaymentRecord } from '../common/payment-records.js';

export const paymentUrl = (base: string, payment: PaymentRecord) => `${base}/v1/payments/${urlSegment(payment.reference)}`;

/** Every attribute a payment has; the single-payment answer shows them all. */
export function paymentAttributes(payment: PaymentRecord): PaymentAttributes {
  return {
    reference: payment.reference,
    amount: formatMinor(payment.amount),
    currency: payment.currency,
    status: payment.status,
    paid: isPaid(payment.status),
    provider: 'payemu',
    customer_email: payment.customer_email ?? null,
    card_last: payment.card_last ?? null,
    card_brand: payment.card_brand ?? null,
    ...(payment.payment_method ? { payment_method: payment.payment_method } : {}),
    capture_method: captureMethod(payment),
    description: paymentDescription(payment) ?? null,
    metadata: payment.metadata ?? {},
    failure_code: payment.failure_code ?? null,
    failure_message: payment.failure_message ?? null,
    captured_at: formatOptionalTimestamp(capturedAt(payment)),
    created_at: formatTimestamp(payment.created_at),
    updated_at: formatTimestamp(updatedAt(payment)),
  };
}

/** Type `payments`: what `fields[payments]` may name, and its one relationship, `refunds`. */
export const paymentShape: ResourceShape = { type: 'payments', attributes: attributeNames(paymentAttributesSchema), relationships: { refunds: refundShape } };

export function presentPayment(payment: PaymentRecord, base: string, fields?: readonly string[]) {
  return {
    id: payment.id,
    type: 'payments',
    attributes: pickAttributes(paymentAttributes(payment), fields, paymentShape),
    links: { self: paymentUrl(base, payment) },
  };
}

/** The control plane's plain-JSON view of a payment. */
export function presentPaymentSummary(payment: PaymentRecord, base: string): PaymentSummary {
  return { id: Number(payment.id), ...paymentAttributes(payment), url: paymentUrl(base, payment) };
}

/** Capture and void answers: an integer `id`, a few attributes and `meta.message`. */
export function presentAction(payment: PaymentRecord, base: string, extra: Record<string, unknown>, message: string) {
  return {
    data: {
      id: Number(payment.id),
      type: 'payments',
      attributes: { reference: payment.reference, amount: formatMinor(payment.amount), status: payment.status, ...extra },
      links: { self: paymentUrl(base, payment) },
    },
    meta: { message },
  };
}
