import t from 'tap';
import { assertError, emulator } from './helpers/emulator.js';

t.test('GET /v1/tax/settings reports the Source config', async (t) => {
  const e = await emulator(t);
  const acme = await e.api.get('/v1/tax/settings');
  t.equal(acme.status, 200);
  t.equal(acme.body.data.type, 'tax-settings');
  t.same(acme.body.data.attributes, { enabled: true, name: 'Sales tax', rate: 7.25, inclusive: false });
  t.same((await e.globex.get('/v1/tax/settings')).body.data.attributes, { enabled: true, name: 'VAT', rate: 21, inclusive: true });
});

t.test('POST /v1/tax/calculate: exclusive and inclusive, half-up to the cent', async (t) => {
  const e = await emulator(t);
  const calc = async (body: Record<string, unknown>) => (await e.api.post('/v1/tax/calculate', body)).body.data.attributes;
  t.same(await calc({ amount: 100 }), { subtotal: '100.00', tax_amount: '7.25', total: '107.25', rate: 7.25, inclusive: false, currency: 'USD' });
  t.match(await calc({ amount: 121, rate: 21, inclusive: true }), { subtotal: '100.00', tax_amount: '21.00', total: '121.00', rate: 21, inclusive: true });
  // 3 x 0.33 = 0.99 at 7.25 %: exclusive 0.071775 -> 0.07; inclusive 0.99 x 7.25 / 107.25 = 0.0669 -> 0.07.
  t.match(await calc({ amount: 0.99 }), { subtotal: '0.99', tax_amount: '0.07', total: '1.06' });
  t.match(await calc({ amount: 0.99, inclusive: true }), { subtotal: '0.92', tax_amount: '0.07', total: '0.99' });
  t.match(await calc({ amount: 2, rate: 7.25 }), { tax_amount: '0.15', total: '2.15' }, '0.145 rounds half up');
  t.match(await calc({ amount: 10, rate: 0 }), { tax_amount: '0.00', total: '10.00' });
  t.match((await e.globex.post('/v1/tax/calculate', { amount: 10 })).body.data.attributes, { inclusive: true, rate: 21, tax_amount: '1.74', subtotal: '8.26' });
  for (const body of [{}, { amount: -1 }, { amount: 1.001 }, { amount: 1, rate: 101 }, { amount: 1, inclusive: 'no' }, { amount: 1, currency: 'XX' }]) {
    assertError(t, await e.api.post('/v1/tax/calculate', body), 422);
  }
});
