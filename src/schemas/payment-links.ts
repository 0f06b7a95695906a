import type { FromSchema } from 'json-schema-to-ts';
import { boolean, currency, date, document, integer, listDocument, metadata, money, named, nullable, object, oneOfValues, resource } from './wire.js';
import { sparse, string, timestamp, uri } from './wire.js';
import { frequency } from './recurring.js';

/** JSON Schemas of the payment-link answers (see wire.ts). */
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

const link = <const A extends object>(attributes: A) => resource({ type: 'payment-links', attributes, links: ['self', 'pay'] });

export const linkDocument = named('PaymentLinkDocument', document(link(linkAttributes)));
/** A link in a read: `fields[payment-links]` may leave attributes out. */
export const linkResource = named('PaymentLink', link(sparse(linkAttributes)));
export const linkReadDocument = named('PaymentLinkReadDocument', document(linkResource));
export const linkListDocument = named('PaymentLinkListDocument', listDocument(linkResource));

export type PaymentLinkAttributes = FromSchema<typeof linkAttributes>;
