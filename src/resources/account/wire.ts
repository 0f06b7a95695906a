import { boolean, currency, document, integer, named, object, oneOfValues, resource, sparse, string } from '../../schemas/wire.js';

/** `GET /v1/me`: the Account of the key (see wire.ts); `fields[accounts]` may leave attributes out. */
export const accountDocument = named(
  'AccountDocument',
  document(
    resource({
      type: 'accounts',
      attributes: sparse(
        object({
          name: string,
          slug: string,
          mode: oneOfValues(['live', 'test']),
          default_currency: currency,
          rate_limit_per_minute: integer,
          ip_whitelisting_enabled: boolean,
          webhook_configured: boolean,
        }),
      ),
    }),
  ),
);
