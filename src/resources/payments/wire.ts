import { document, integer, linkage, listDocument, messageMeta, money, named, object, resource, sparse, string, timestamp } from '../../schemas/wire.js';
import { paymentAttributes, paymentStatus } from '../../schemas/payments.js';
import { refundResource } from '../refunds/wire.js';

/** JSON Schemas of the payment answers of `/v1` (see src/schemas/wire.ts; a payment's attributes are shared: src/schemas/payments.ts). */
/** A payment in a read: `fields[payments]` (or a list's usual five) may leave attributes out; `refunds` with `include` or `fields`. */
export const paymentResource = named(
  'Payment',
  resource({ type: 'payments', attributes: sparse(paymentAttributes), relationships: { refunds: linkage('refunds') } }),
);

export const paymentReadDocument = named('PaymentDocument', document(paymentResource, { included: refundResource }));

export const paymentListDocument = named('PaymentListDocument', listDocument(paymentResource, { included: refundResource }));

const actionAttributes = { reference: string, amount: money, status: paymentStatus };

/** Capture: an integer `id`, `reference`, `amount`, `status`, `captured_at` and `meta.message`. */
export const captureDocument = named(
  'CaptureDocument',
  document(resource({ type: 'payments', id: integer, attributes: object({ ...actionAttributes, captured_at: timestamp }) }), { meta: messageMeta }),
);

export const voidDocument = named(
  'VoidDocument',
  document(resource({ type: 'payments', id: integer, attributes: object(actionAttributes) }), { meta: messageMeta }),
);
