import type { FromSchema } from 'json-schema-to-ts';
import { document, named, object, resource, string, timestamp, uri } from '../../schemas/wire.js';

/** `POST /v1/recurring-payments/{reference}/payment-method-session` (see wire.ts). */
export const methodSessionDocument = named(
  'PaymentMethodSessionDocument',
  document(
    resource({
      type: 'payment-method-sessions',
      attributes: object({ recurring_reference: string, checkout_url: uri, expires_at: timestamp }),
      links: ['checkout'],
    }),
  ),
);

export type PaymentMethodSessionDocument = FromSchema<typeof methodSessionDocument>;
