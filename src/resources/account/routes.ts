import { parseDocumentQuery, sparseResource, type ResourceShape } from '../../http/document-query.js';
import { v1 } from '../../http/route.js';
import { documentParameters, errors } from '../../http/wire.js';
import { accountDocument } from './responses.js';

const accountShape: ResourceShape = {
  type: 'accounts',
  attributes: ['name', 'slug', 'mode', 'default_currency', 'rate_limit_per_minute', 'ip_whitelisting_enabled', 'webhook_configured'],
};

/** `GET /v1/me`: the Account resource of the key. */
export const accountRoutes = [
  v1({
    method: 'GET',
    path: '/v1/me',
    summary: 'The account of the key: Source, mode and limits',
    parameters: documentParameters(accountShape),
    responses: { 200: accountDocument, 400: errors, 422: errors },
    handle: ({ app, scope, query }) => {
      const q = parseDocumentQuery(query, accountShape);
      const { source, mode } = scope;
      return {
        status: 200,
        json: {
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
        },
      };
    },
  }),
];
