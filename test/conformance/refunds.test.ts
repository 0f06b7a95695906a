import t from 'tap';
import { assertError, emulator, pay } from '../helpers/emulator.js';

// The API's Refund resource and endpoints and the PAID -> PARTIALLY_REFUNDED transition; payemu's
// refund rules (from PAID or PARTIALLY_REFUNDED, 0.01 to the refundable amount, REFUNDED at
// zero). Each test is titled with the sentence it checks. One emulator serves the file; tests
// keep apart by reference.

const e = await emulator(t, { clockStart: '2027-01-10T09:00:00Z', freezeClock: true });
const events: { name: string; data: Record<string, any> }[] = [];
e.bus.on('domain', (ev) => events.push({ name: ev.name, data: ev.data }));

t.test(
  'Refund attributes: amount (string), reason, status completed, created_at; id a string (re_); meta.payment reference, status, amount, total_refunded, refundable_amount (all strings)',
  async (t) => {
    await pay(e, { amount: 100, reference: 'rf-shape' });
    const res = await e.api.post('/v1/payments/rf-shape/refunds', { amount: 30, reason: 'damaged' });
    t.equal(res.status, 201, 'a POST that creates a resource answers 201');
    t.match(res.body.data.id, /^re_[0-9A-Za-z]{24}$/);
    t.equal(res.body.data.type, 'refunds');
    t.same(res.body.data.attributes, { amount: '30.00', reason: 'damaged', status: 'completed', created_at: '2027-01-10T09:00:00.000000Z' });
    t.same(res.body.meta.payment, {
      reference: 'rf-shape',
      status: 'PARTIALLY_REFUNDED',
      amount: '100.00',
      total_refunded: '30.00',
      refundable_amount: '70.00',
    });
  },
);

t.test('PAID -> partial refund -> PARTIALLY_REFUNDED; total_refunded and refundable_amount updated; event payment.refunded', async (t) => {
  await pay(e, { amount: 50, reference: 'rf-part' });
  await e.api.post('/v1/payments/rf-part/refunds', { amount: 20 });
  t.match((await e.api.get('/v1/payments/rf-part')).body.data.attributes, { status: 'PARTIALLY_REFUNDED', paid: true });
  const refunded = events.filter((x) => x.name === 'payment.refunded' && x.data.reference === 'rf-part');
  t.equal(refunded.length, 1);
  t.match(refunded[0]!.data, { status: 'PARTIALLY_REFUNDED', refund_amount: 20, total_refunded: 20, refundable_amount: 30 });
});

t.test('Reaching zero refundable sets REFUNDED', async (t) => {
  await pay(e, { amount: 50, reference: 'rf-full' });
  await e.api.post('/v1/payments/rf-full/refunds', { amount: 20 });
  const last = await e.api.post('/v1/payments/rf-full/refunds', { amount: 30 });
  t.same(last.body.meta.payment, { reference: 'rf-full', status: 'REFUNDED', amount: '50.00', total_refunded: '50.00', refundable_amount: '0.00' });
  t.match((await e.api.get('/v1/payments/rf-full')).body.data.attributes, { status: 'REFUNDED', paid: true });
});

t.test('GET /v1/payments/{reference}/refunds returns all refunds of the payment: data (array of refunds) and meta.payment; errors 404', async (t) => {
  await pay(e, { amount: 10, reference: 'rf-list' });
  await e.api.post('/v1/payments/rf-list/refunds', { amount: 1 });
  await e.api.post('/v1/payments/rf-list/refunds', { amount: 2, reason: 'late' });
  const res = await e.api.get('/v1/payments/rf-list/refunds');
  t.equal(res.status, 200);
  t.same(
    res.body.data.map((r: any) => [r.type, r.attributes.amount]),
    [
      ['refunds', '1.00'],
      ['refunds', '2.00'],
    ],
  );
  t.same(res.body.meta.payment, { reference: 'rf-list', status: 'PARTIALLY_REFUNDED', amount: '10.00', total_refunded: '3.00', refundable_amount: '7.00' });
  assertError(t, await e.api.get('/v1/payments/rf-none/refunds'), 404);
  assertError(t, await e.api.post('/v1/payments/rf-none/refunds', { amount: 1 }), 404);
});

t.test('Refunds: allowed from PAID or PARTIALLY_REFUNDED; amount from 0.01 to the refundable amount; otherwise 422 with a detail that says why', async (t) => {
  await pay(e, { amount: 10, reference: 'rf-rules' });
  assertError(t, await e.api.post('/v1/payments/rf-rules/refunds', {}), 422, undefined);
  assertError(t, await e.api.post('/v1/payments/rf-rules/refunds', { amount: 0 }), 422);
  assertError(t, await e.api.post('/v1/payments/rf-rules/refunds', { amount: 10.01 }), 422, /10\.00/);
  assertError(t, await e.api.post('/v1/payments/rf-rules/refunds', { amount: 0.005 }), 422);
  t.equal((await e.api.post('/v1/payments/rf-rules/refunds', { amount: 0.01 })).status, 201, '0.01 is allowed');
  t.equal((await e.api.post('/v1/payments/rf-rules/refunds', { amount: 9.99 })).status, 201, 'up to the refundable amount');
  assertError(t, await e.api.post('/v1/payments/rf-rules/refunds', { amount: 0.01 }), 422, /refund/i);
  await pay(e, { amount: 10, reference: 'rf-failed' }, '4000000000000002');
  assertError(t, await e.api.post('/v1/payments/rf-failed/refunds', { amount: 1 }), 422, /FAILED/);
  await pay(e, { amount: 10, reference: 'rf-held', capture_method: 'manual' });
  assertError(t, await e.api.post('/v1/payments/rf-held/refunds', { amount: 1 }), 422, /AUTHORIZED/);
  t.equal((await e.api.get('/v1/payments/rf-held/refunds')).body.data.length, 0, 'a refused refund changes nothing');
});
