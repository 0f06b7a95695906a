import { boolean, currency, document, money, named, number, object, resource, sparse, string } from '../../schemas/wire.js';

/** JSON Schemas of the tax answers (see wire.ts). */
export const taxSettingsAttributes = object({ enabled: boolean, name: string, rate: number, inclusive: boolean });

/** `GET /v1/tax/settings`: `fields[tax-settings]` may leave attributes out. */
export const taxSettingsDocument = named('TaxSettingsDocument', document(resource({ type: 'tax-settings', attributes: sparse(taxSettingsAttributes) })));

/** `POST /v1/tax/calculate`: no `id`, no `links`. */
export const taxCalculationDocument = named(
  'TaxCalculationDocument',
  document(
    object({
      type: { const: 'tax-calculations' },
      attributes: object({ subtotal: money, tax_amount: money, total: money, rate: number, inclusive: boolean, currency }),
    }),
  ),
);
