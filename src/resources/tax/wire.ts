import { boolean, currency, document, money, named, number, object, resource, sparse, string } from '../../schemas/wire.js';

/** JSON Schemas of the tax answers (see wire.ts). */
export const taxSettingsAttributes = object({ enabled: boolean, name: string, rate: number, inclusive: boolean });

/** `GET /v1/tax/settings`: `fields[tax-settings]` may leave attributes out. */
export const taxSettingsDocument = named('TaxSettingsDocument', document(resource({ type: 'tax-settings', attributes: sparse(taxSettingsAttributes) })));

/**
 * `POST /v1/tax/calculate`: a result, not a stored resource, so no `links`; its `id` (`tc_` + 24
 * base62) is fresh per calculation because every `data` in the API has one.
 */
export const taxCalculationDocument = named(
  'TaxCalculationDocument',
  document(
    object({
      id: { type: 'string', pattern: '^tc_[0-9A-Za-z]{24}$' },
      type: { const: 'tax-calculations' },
      attributes: object({ subtotal: money, tax_amount: money, total: money, rate: number, inclusive: boolean, currency }),
    }),
  ),
);
