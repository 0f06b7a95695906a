import t from 'tap';
import { assertError, emulator } from '../helpers/emulator.js';

// payemu's tax settings and calculation (`GET /v1/tax/settings`, `POST /v1/tax/calculate`): the
// types, the attributes, half-up rounding and the inclusive and exclusive formulas, `apply_tax`
// on a session. Each test is titled with the sentence it checks. One emulator serves the file.

const e = await emulator(t);
const calc = async (body: Record<string, unknown>, as = e.api) => {
  const res = await as.post('/v1/tax/calculate', body);
  t.equal(res.status, 200, 'calculate is an action: 200');
  return res.body.data;
};

t.test('GET /v1/tax/settings (type tax-settings: enabled, name, rate, inclusive); rates are numbers', async (t) => {
  const res = await e.api.get('/v1/tax/settings');
  t.equal(res.status, 200);
  t.equal(res.body.data.type, 'tax-settings');
  t.same(res.body.data.attributes, { enabled: true, name: 'Sales tax', rate: 7.25, inclusive: false });
  t.same((await e.globex.get('/v1/tax/settings')).body.data.attributes, { enabled: true, name: 'VAT', rate: 21, inclusive: true });
});

t.test(
  'POST /v1/tax/calculate with amount, currency, optional inclusive and rate (type tax-calculations: subtotal, tax_amount, total, rate, inclusive)',
  async (t) => {
    const data = await calc({ amount: 100, currency: 'USD' });
    t.equal(data.type, 'tax-calculations');
    t.match(data.attributes, { subtotal: '100.00', tax_amount: '7.25', total: '107.25', rate: 7.25, inclusive: false });
    t.match((await calc({ amount: 100, rate: 10, inclusive: true })).attributes, { rate: 10, inclusive: true }, 'rate and inclusive override the settings');
    t.match((await calc({ amount: 10 }, e.globex)).attributes, { rate: 21, inclusive: true }, "without them, the Source's settings");
  },
);

t.test('A tax calculation has an id, tc_ + 24 base62, fresh per call and not stored; an idempotent replay answers the same id', async (t) => {
  const first = await calc({ amount: 100 });
  const second = await calc({ amount: 100 });
  t.match(first.id, /^tc_[0-9A-Za-z]{24}$/);
  t.not(first.id, second.id, 'the same request again is a new calculation with a new id');
  t.notOk('links' in first, 'no links: there is nothing to read back');
  t.equal((await e.api.get(`/v1/tax/calculations/${first.id}`)).status, 404, 'not retrievable');
  const key = { 'Idempotency-Key': 'tax-calc-replay' };
  const original = await e.api.post('/v1/tax/calculate', { amount: 100 }, key);
  const replay = await e.api.post('/v1/tax/calculate', { amount: 100 }, key);
  t.equal(replay.headers.get('idempotent-replayed'), 'true');
  t.equal(replay.text, original.text, 'the saved body, byte for byte');
  t.equal(replay.body.data.id, original.body.data.id);
});

t.test('Exclusive: tax = round(net × r / 100), half-up to the minor unit', async (t) => {
  t.match((await calc({ amount: 2, rate: 7.25 })).attributes, { subtotal: '2.00', tax_amount: '0.15', total: '2.15' }, '0.145 -> 0.15');
  t.match((await calc({ amount: 0.99, rate: 7.25 })).attributes, { tax_amount: '0.07', total: '1.06' }, '0.071775 -> 0.07');
  t.match((await calc({ amount: 10, rate: 0 })).attributes, { tax_amount: '0.00', total: '10.00' });
});

t.test('Inclusive: tax = round(T × r / (100 + r)), net = T − tax', async (t) => {
  t.match((await calc({ amount: 121, rate: 21, inclusive: true })).attributes, { subtotal: '100.00', tax_amount: '21.00', total: '121.00' });
  t.match((await calc({ amount: 10, rate: 21, inclusive: true })).attributes, { subtotal: '8.26', tax_amount: '1.74', total: '10.00' }, '1.7355 -> 1.74');
});

t.test('Every amount in a response is a two-decimal string, tax calculations included; bad input is a 422', async (t) => {
  const { attributes } = await calc({ amount: 5 });
  for (const key of ['subtotal', 'tax_amount', 'total']) t.match(attributes[key], /^\d+\.\d\d$/, key);
  for (const body of [{}, { amount: -1 }, { amount: 1.001 }, { amount: 1, rate: 101 }, { amount: 1, rate: -1 }, { amount: 1, inclusive: 'no' }]) {
    assertError(t, await e.api.post('/v1/tax/calculate', body), 422);
  }
});

t.test(
  'apply_tax on a session: exclusive tax is added to amount, inclusive tax is extracted from it; the session amount is what the customer pays',
  async (t) => {
    t.equal((await e.api.post('/v1/sessions', { amount: 100, apply_tax: true })).body.data.attributes.amount, 107.25, 'acme, exclusive 7.25 %');
    t.equal((await e.globex.post('/v1/sessions', { amount: 121, apply_tax: true })).body.data.attributes.amount, 121, 'globex, inclusive 21 %');
    const overrides = await e.api.post('/v1/sessions', { amount: 100, apply_tax: true, tax: { amount: 50 } });
    t.equal(overrides.body.data.attributes.amount, 107.25, 'apply_tax overrides tax');
  },
);
