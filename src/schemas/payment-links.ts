import type { FromSchema } from 'json-schema-to-ts';
import { boolean, currency, date, integer, metadata, money, named, nullable, object, oneOfValues } from './wire.js';
import { string, timestamp, uri } from './wire.js';
import { frequency } from './recurring.js';

/** The attributes of a payment link (see wire.ts), which the control plane's pay answer embeds too; the `/v1` answers are in src/resources/payment-links/wire.ts. */
export const linkAttributes = named(
  'PaymentLinkAttributes',
  object({
    url: uri,
    title: string,
    description: nullable(string),
    type: oneOfValues(['one_time', 'limited', 'unlimited', 'recurring']),
    amount: money,
    currency,
    active: boolean,
    usable: boolean,
    uses_count: integer,
    max_uses: nullable(integer),
    expires_at: nullable(timestamp),
    taxable: boolean,
    recurring: nullable(object({ frequency, interval_count: nullable(integer), end_date: nullable(date) })),
    products: { type: 'array', items: object({ id: integer, name: string, quantity: integer, unit_price: money, amount: money }) },
    metadata,
    success_url: nullable(uri),
    cancel_url: nullable(uri),
    test: boolean,
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

export type PaymentLinkAttributes = FromSchema<typeof linkAttributes>;
