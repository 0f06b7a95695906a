import t from 'tap';
import { calculateTax } from './calculate.js';

t.test('exclusive tax is added, rounded half up to the cent', async (t) => {
  t.same(calculateTax(10000, 7.25, false), { net: 10000, tax: 725, total: 10725 });
  t.same(calculateTax(99, 7.25, false), { net: 99, tax: 7, total: 106 }); // 7.1775 -> 7
  t.same(calculateTax(200, 7.25, false), { net: 200, tax: 15, total: 215 }); // 14.5 -> 15 (half up)
  t.same(calculateTax(1000, 0, false), { net: 1000, tax: 0, total: 1000 });
});

t.test('inclusive tax is extracted: tax = round(T x r / (100 + r))', async (t) => {
  t.same(calculateTax(12100, 21, true), { net: 10000, tax: 2100, total: 12100 });
  t.same(calculateTax(99, 7.25, true), { net: 92, tax: 7, total: 99 }); // 6.69 -> 7
  t.same(calculateTax(100, 100, true), { net: 50, tax: 50, total: 100 });
});
