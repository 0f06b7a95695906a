import type { Minor } from '../../lib/money.js';

/**
 * Tax on integer minor units with half-up rounding to the minor unit. Rates are percent
 * (7.25 means 7.25 %), scaled to integers (x 10,000) so no float enters the arithmetic.
 *   exclusive: tax = round(net x r / 100), total = net + tax
 *   inclusive: tax = round(T x r / (100 + r)), net = T - tax
 */
export function calculateTax(amount: Minor, rate: number, inclusive: boolean): { net: Minor; tax: Minor; total: Minor } {
  const r = Math.round(rate * 10_000); // percent x 10^4
  if (inclusive) {
    const denominator = 1_000_000 + r;
    const tax = Math.floor((2 * amount * r + denominator) / (2 * denominator));
    return { net: amount - tax, tax, total: amount };
  }
  const tax = Math.floor((amount * r + 500_000) / 1_000_000);
  return { net: amount, tax, total: amount + tax };
}
