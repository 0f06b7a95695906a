import { v1 } from '../../http/route.js';

/** `GET /v1/me`: the Account resource of the key (SPEC.md). */
export const accountRoutes = [
  v1({
    method: 'GET',
    path: '/v1/me',
    handle: ({ app, scope }) => {
      const { source, mode } = scope;
      return {
        status: 200,
        json: {
          data: {
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
        },
      };
    },
  }),
];
