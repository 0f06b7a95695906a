import { sourceResourceRoute } from '../../http/resource-routes.js';
import { accountAttributes, accountDocument } from './wire.js';

/** `GET /v1/me`: the Account resource of the key. */
export const accountRoutes = [
  sourceResourceRoute('/v1/me', 'The account of the key: Source, mode and limits', {
    type: 'accounts',
    attributes: accountAttributes,
    document: accountDocument,
    read: ({ app, scope }) => {
      const { source, mode } = scope;
      return {
        name: source.name,
        slug: source.slug,
        mode,
        default_currency: source.currency,
        rate_limit_per_minute: source.rate_limit_per_minute,
        ip_whitelisting_enabled: source.ip_whitelist.length > 0,
        webhook_configured: app.webhooks.endpointFor(source) !== null,
      };
    },
  }),
];
