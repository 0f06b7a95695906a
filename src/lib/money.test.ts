import t from 'tap';
import { formatMinor, minorToNumber, toMinor } from './money.js';

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
