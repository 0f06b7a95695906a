import type { TaxSettings } from '../../config/types.js';
import { Unprocessable } from '../../http/errors.js';
import type { Minor } from '../../lib/money.js';
import { calculateTax } from '../tax/calculate.js';
import type { InvoiceItem } from './records.js';

export interface InvoiceTotals {
  subtotal: Minor;
  discount: Minor;
  rate: number;
  tax_amount: Minor;
  total: Minor;
}

/** The rate an invoice applies: an explicit `tax_rate` wins over `apply_tax` (the team's rate). */
export function invoiceRate(taxRate: number | null | undefined, applyTax: boolean, settings: TaxSettings): number {
  return taxRate ?? (applyTax && settings.enabled ? settings.rate : 0);
}

/**
 * Totals: subtotal = sum of quantity x unit_price; tax is charged on
 * subtotal - discount (added on top, rounded half up); total = subtotal - discount + tax.
 */
export function invoiceTotals(items: readonly InvoiceItem[], discount: Minor, rate: number): InvoiceTotals {
  const subtotal = items.reduce((sum, item) => sum + item.quantity * item.unit_price, 0);
  if (discount > subtotal) throw Unprocessable.field('discount', 'The discount must not be greater than the subtotal of the items.');
  const { tax } = calculateTax(subtotal - discount, rate, false);
  return { subtotal, discount, rate, tax_amount: tax, total: subtotal - discount + tax };
}
