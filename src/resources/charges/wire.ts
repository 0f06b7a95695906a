import { boolean, currency, document, integer, metadata, money, named, nullable, object, resource, sparse, string, timestamp } from '../../schemas/wire.js';
import { failureCode, paymentStatus } from '../../schemas/payments.js';

/** JSON Schemas of the charge answers (see wire.ts). */
export const chargeAttributes = named(
  'ChargeAttributes',
  object({
    reference: string,
    amount: money,
    currency,
    status: paymentStatus,
    paid: boolean,
    payment_method: nullable(string),
    failure_code: nullable(failureCode),
    failure_message: nullable(string),
    payment_id: integer,
    description: nullable(string),
    metadata,
    created_at: timestamp,
  }),
);

export const chargeDocument = named('ChargeDocument', document(resource({ type: 'charges', attributes: chargeAttributes, links: ['self', 'payment'] })));

/** `GET /v1/charges/{id}`: `fields[charges]` may leave attributes out. */
export const chargeReadDocument = named(
  'ChargeReadDocument',
  document(resource({ type: 'charges', attributes: sparse(chargeAttributes), links: ['self', 'payment'] })),
);
