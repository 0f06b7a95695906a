import { sourceResourceRoute } from '../../http/resource-routes.js';
import { v1 } from '../../http/route.js';
import { newId } from '../../lib/ids.js';
import { formatMinor, toMinor } from '../../lib/money.js';
import { calculateTax } from './calculate.js';

import { taxCalculationDocument, taxSettingsAttributes, taxSettingsDocument } from './wire.js';

export const calculateTaxBody = {
  type: 'object',
  required: ['amount'],
  properties: {
    amount: { type: 'number', minimum: 0, maximum: 999999999.99, money: true },
    currency: { type: 'string', minLength: 3, maxLength: 3, currency: true },
    inclusive: { type: 'boolean' },
    rate: { type: 'number', minimum: 0, maximum: 100 },
  },
} as const;

/** Tax settings of the Source and a calculator (without a rate, the Source's). */
export const taxRoutes = [
  sourceResourceRoute('/v1/tax/settings', "The Source's tax settings", {
    type: 'tax-settings',
    attributes: taxSettingsAttributes,
    document: taxSettingsDocument,
    read: ({ scope }) => {
      const { enabled, name, rate, inclusive } = scope.source.tax;
      return { enabled, name, rate, inclusive };
    },
  }),
  v1<{ amount: number; currency?: string; inclusive?: boolean; rate?: number }>({
    method: 'POST',
    path: '/v1/tax/calculate',
    summary: 'Calculate tax on an amount',
    body: calculateTaxBody,
    responses: { 200: taxCalculationDocument },
    handle: ({ scope, body }) => {
      const settings = scope.source.tax;
      // Without a rate the Source's applies (0 when its tax is turned off).
      const rate = body.rate ?? (settings.enabled ? settings.rate : 0);
      const inclusive = body.inclusive ?? settings.inclusive;
      const result = calculateTax(toMinor(body.amount), rate, inclusive);
      return {
        status: 200,
        json: {
          data: {
            // Not stored and not retrievable: an idempotent replay answers the saved body, so the same id.
            id: newId('tc_'),
            type: 'tax-calculations',
            attributes: {
              subtotal: formatMinor(result.net),
              tax_amount: formatMinor(result.tax),
              total: formatMinor(result.total),
              rate,
              inclusive,
              currency: (body.currency ?? scope.source.currency).toUpperCase(),
            },
          },
        },
      };
    },
  }),
];
