import t from 'tap';
import { formatAmount, formatMinor, minorToNumber, payloadAmount, toMinor } from './money.js';

t.test('major units to minor units without float drift', async (t) => {
  t.equal(toMinor(0.29), 29);
  t.equal(toMinor(0.1 + 0.2 - 0.00000000000000004), 30);
  t.equal(toMinor(999999.99), 99999999);
  t.equal(toMinor(1.15), 115);
});

t.test('minor units to two-decimal strings', async (t) => {
  t.equal(formatMinor(0), '0.00');
  t.equal(formatMinor(1), '0.01');
  t.equal(formatMinor(1050), '10.50');
  t.equal(formatMinor(99999999), '999999.99');
  t.equal(formatMinor(-5), '-0.05');
  let sum = 0;
  for (let i = 0; i < 100; i++) sum += toMinor(0.01);
  t.equal(formatMinor(sum), '1.00', '100 x 0.01 is exactly 1.00');
  t.equal(minorToNumber(toMinor(0.1) + toMinor(0.2)), 0.3);
});

t.test('an amount as a number is the number its text reads as', async (t) => {
  let differ = 0;
  for (let minor = -100_000; minor <= 10_000_000; minor += minor > 200_000 ? 97 : 1) if (minorToNumber(minor) !== Number(formatMinor(minor))) differ++;
  t.equal(differ, 0);
  t.equal(minorToNumber(99999999), 999999.99);
});

t.test('amounts for people: two decimals and the currency, from a number or the API text', async (t) => {
  t.equal(formatAmount(25, 'USD'), '25.00 USD');
  t.equal(formatAmount(25.5, 'EUR'), '25.50 EUR');
  t.equal(formatAmount('25.00', 'USD'), '25.00 USD', 'the API text');
  t.equal(formatAmount(0.29, 'USD'), '0.29 USD', 'no float noise');
  t.equal(formatAmount(123_456_789_012.34, 'USD'), '123456789012.34 USD');
  t.equal(formatAmount(-5, 'USD'), '-5.00 USD');
  t.equal(formatAmount(12, null), '12.00', 'no currency: the number alone');
  t.equal(formatAmount('n/a', 'USD'), 'n/a USD', 'text that is no number stays as it is');
});

t.test("an event's amount: its amount, else the invoice's total", async (t) => {
  t.same(payloadAmount({ amount: 25, currency: 'USD', total: 1 }), { amount: 25, currency: 'USD' });
  t.same(payloadAmount({ subtotal: 100, tax_amount: 7.25, total: 107.25, currency: 'USD' }), { amount: 107.25, currency: 'USD' });
  t.same(payloadAmount({ amount: 3 }), { amount: 3, currency: null });
  t.equal(payloadAmount({ currency: 'USD' }), null, 'no amount, no total');
});
