import { document, integer, linkage, listDocument, messageMeta, money, named, object, pick, resource, sparse, string, timestamp } from '../../schemas/wire.js';
import { paymentAttributes, paymentStatus } from '../../schemas/payments.js';
import { refundResource } from '../refunds/wire.js';

/** JSON Schemas of the payment answers of `/v1` (see src/schemas/wire.ts; a payment's attributes are shared: src/schemas/payments.ts). */

const refunds = { refunds: linkage('refunds') };

/** A payment in a read: `fields[payments]` may leave attributes out; `refunds` with `include` or `fields`. */
export const paymentResource = named('Payment', resource({ type: 'payments', attributes: sparse(paymentAttributes), relationships: refunds }));

export const paymentReadDocument = named('PaymentDocument', document(paymentResource, { included: refundResource }));

/** Attributes of a list item unless `fields[payments]` says otherwise (the hosted API's five). */
export const LIST_ATTRIBUTES = ['reference', 'amount', 'currency', 'status', 'paid'] as const;

/** A payment in a list: the five of LIST_ATTRIBUTES, unless `fields[payments]` asks for others. */
export const paymentListItem = named(
  'PaymentListItem',
  resource({ type: 'payments', attributes: sparse(paymentAttributes, pick(paymentAttributes, LIST_ATTRIBUTES)), relationships: refunds }),
);

export const paymentListDocument = named('PaymentListDocument', listDocument(paymentListItem, { included: refundResource }));

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
