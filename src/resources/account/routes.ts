import { sparseResource, type ResourceShape } from '../../http/document-query.js';
import { readRoute } from '../../http/resource-routes.js';
import { attributeNames } from '../../schemas/wire.js';
import { accountAttributes, accountDocument } from './wire.js';

const accountShape: ResourceShape = { type: 'accounts', attributes: attributeNames(accountAttributes) };

/** `GET /v1/me`: the Account resource of the key. */
export const accountRoutes = [
  readRoute('/v1/me', 'The account of the key: Source, mode and limits', {
    shape: accountShape,
    document: accountDocument,
    read: ({ app, scope }, q) => {
      const { source, mode } = scope;
      return {
        data: sparseResource(
          {
            id: source.slug,
            type: 'accounts',
            attributes: {
              name: source.name,
              slug: source.slug,
              mode,
              default_currency: source.currency,
              rate_limit_per_minute: source.rate_limit_per_minute,
              ip_whitelisting_enabled: source.ip_whitelist.length > 0,
              webhook_configured: app.webhooks.endpointFor(source) !== null,
            },
            links: { self: `${app.baseUrl()}/v1/me` },
          },
          q,
          accountShape,
        ),
      };
    },
  }),
];
