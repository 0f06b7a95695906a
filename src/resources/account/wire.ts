import { boolean, currency, document, integer, named, object, oneOfValues, resource, sparse, string } from '../../schemas/wire.js';

/** The Account's attributes: all of them in a plain `GET /v1/me`. */
export const accountAttributes = object({
  name: string,
  slug: string,
  mode: oneOfValues(['live', 'test']),
  default_currency: currency,
  rate_limit_per_minute: integer,
  ip_whitelisting_enabled: boolean,
  webhook_configured: boolean,
});

/** `GET /v1/me`: the Account of the key (see wire.ts); `fields[accounts]` may leave attributes out. */
export const accountDocument = named('AccountDocument', document(resource({ type: 'accounts', attributes: sparse(accountAttributes) })));
