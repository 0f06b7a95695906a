import type { FromSchema } from 'json-schema-to-ts';
import { amountNumber, boolean, currency, document, metadata, named, nullable, object, oneOfValues, resource, sparse, string } from '../../schemas/wire.js';
import { timestamp, uri } from '../../schemas/wire.js';

/** JSON Schemas of the session answers (see wire.ts). */
const created = object({ amount: amountNumber, currency, reference: string, checkout_url: uri, expires_at: timestamp });

/** `POST /v1/sessions`: exactly the five attributes, `amount` a number. */
export const createdSessionDocument = named(
  'CreatedSessionDocument',
  document(resource({ type: 'sessions', attributes: created, links: ['self', 'checkout'] })),
);

const nullableNumber = nullable(amountNumber);

export const sessionAttributes = named(
  'SessionAttributes',
  object({
    amount: amountNumber,
    currency,
    reference: string,
    status: oneOfValues(['open', 'complete', 'expired']),
    payment_status: oneOfValues(['unpaid', 'paid', 'authorized', 'failed']),
    checkout_url: uri,
    expires_at: timestamp,
    success_url: nullable(uri),
    cancel_url: nullable(uri),
    customer_email: nullable(string),
    customer_name: nullable(string),
    description: nullable(string),
    capture_method: oneOfValues(['automatic', 'manual']),
    save_payment_method: boolean,
    metadata,
    subtotal: nullableNumber,
    discount: nullableNumber,
    shipping: nullableNumber,
    tax: nullable(
      object({
        amount: amountNumber,
        lines: { type: 'array', items: object({ name: string, rate: { type: 'number' }, amount: amountNumber }, ['rate']) },
      }),
    ),
    created_at: timestamp,
  }),
);

/** `GET /v1/sessions/{id}` (`fields[sessions]` may leave attributes out). */
export const sessionDocument = named(
  'SessionDocument',
  document(resource({ type: 'sessions', attributes: sparse(sessionAttributes), links: ['self', 'checkout'] })),
);

/** `POST /v1/sessions`: exactly five attributes. */
export type CreatedSessionDocument = FromSchema<typeof createdSessionDocument>;
/** `GET /v1/sessions/{id}`. */
export type SessionDocument = FromSchema<typeof sessionDocument>;
