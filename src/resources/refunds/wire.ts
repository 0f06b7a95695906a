import type { FromSchema } from 'json-schema-to-ts';
import { document, money, named, nullable, object, resource, sparse, string, timestamp } from '../../schemas/wire.js';
import { PAYMENT_STATUSES } from '../../schemas/payment-status.js';

/** JSON Schemas of the refund answers (see wire.ts). */
export const refundAttributes = named(
  'RefundAttributes',
  object({ amount: money, reason: nullable(string), status: { const: 'completed' }, created_at: timestamp }),
);

/** A refund as a resource; `fields[refunds]` may leave attributes out of reads. */
export const refundResource = named('Refund', resource({ type: 'refunds', attributes: sparse(refundAttributes), links: [] }));

/** `meta.payment` of the refund answers: every amount a string. */
export const refundMeta = object({
  payment: object({
    reference: string,
    status: { type: 'string', enum: [...PAYMENT_STATUSES] },
    amount: money,
    total_refunded: money,
    refundable_amount: money,
  }),
});

export const refundDocument = named('RefundDocument', document(resource({ type: 'refunds', attributes: refundAttributes, links: [] }), { meta: refundMeta }));

export const refundListDocument = named('RefundListDocument', document({ type: 'array', items: refundResource }, { meta: refundMeta }));

export type RefundAttributes = FromSchema<typeof refundAttributes>;
/** `meta` of the refund answers. */
export type RefundMeta = FromSchema<typeof refundMeta>;
