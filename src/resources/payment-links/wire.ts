import { document, listDocument, named, resource, sparse } from '../../schemas/wire.js';
import { linkAttributes } from '../../schemas/payment-links.js';

/** JSON Schemas of the payment-link answers of `/v1` (a link's attributes are shared with the control plane: src/schemas/payment-links.ts). */
const link = <const A extends object>(attributes: A) => resource({ type: 'payment-links', attributes, links: ['self', 'pay'] });

export const linkDocument = named('PaymentLinkDocument', document(link(linkAttributes)));
/** A link in a read: `fields[payment-links]` may leave attributes out. */
export const linkResource = named('PaymentLink', link(sparse(linkAttributes)));
export const linkReadDocument = named('PaymentLinkReadDocument', document(linkResource));
export const linkListDocument = named('PaymentLinkListDocument', listDocument(linkResource));

/** The `{id}` of a payment link's paths: the integer (answers show it as a string, `"17"`). */
export const linkIdParameter = named('PaymentLinkId', {
  type: 'integer',
  minimum: 1,
  description: 'A payment link id: the integer that answers show as a string (`"17"`).',
});
