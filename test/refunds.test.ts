import t from 'tap';
import { assertError, emulator, pay } from './helpers/emulator.js';

t.test('a partial then a full refund: statuses, meta.payment strings, payment.refunded', async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 100, reference: 'r1' });
  const events: { name: string; data: Record<string, unknown> }[] = [];
  e.bus.on('domain', (ev) => events.push({ name: ev.name, data: ev.data }));

  const first = await e.api.post('/v1/payments/r1/refunds', { amount: 30, reason: 'damaged' });
  t.equal(first.status, 201);
  t.match(first.body.data.id, /^re_[0-9A-Za-z]{24}$/);
  t.equal(first.body.data.type, 'refunds');
  t.match(first.body.data.attributes, { amount: '30.00', reason: 'damaged', status: 'completed' });
  t.match(first.body.data.attributes.created_at, /\.\d{6}Z$/);
  t.same(first.body.meta.payment, { reference: 'r1', status: 'PARTIALLY_REFUNDED', amount: '100.00', total_refunded: '30.00', refundable_amount: '70.00' });
  t.match((await e.api.get('/v1/payments/r1')).body.data.attributes, { status: 'PARTIALLY_REFUNDED', paid: true });

  const second = await e.api.post('/v1/payments/r1/refunds', { amount: 70 });
  t.same(second.body.meta.payment, { reference: 'r1', status: 'REFUNDED', amount: '100.00', total_refunded: '100.00', refundable_amount: '0.00' });
  t.equal(second.body.data.attributes.reason, null);
  t.match((await e.api.get('/v1/payments/r1')).body.data.attributes, { status: 'REFUNDED', paid: true });

  t.same(
    events.map((ev) => ev.name),
    ['payment.refunded', 'payment.refunded'],
  );
  t.match(events[0]!.data, { reference: 'r1', status: 'PARTIALLY_REFUNDED', refund_amount: 30, total_refunded: 30, refundable_amount: 70 });

  const list = await e.api.get('/v1/payments/r1/refunds');
  t.equal(list.status, 200);
  t.same(
    list.body.data.map((r: { attributes: { amount: string } }) => r.attributes.amount),
    ['30.00', '70.00'],
  );
  t.same(list.body.meta.payment.total_refunded, '100.00');
});

t.test('every refusal is a 422 that says why and changes nothing', async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 10, reference: 'paid' });
  await pay(e, { amount: 10, reference: 'failed' }, '4000000000000002');
  await pay(e, { amount: 10, reference: 'held', capture_method: 'manual' });

  const cases: [string, unknown, RegExp][] = [
    ['failed', { amount: 1 }, /status is FAILED/],
    ['held', { amount: 1 }, /status is AUTHORIZED/],
    ['paid', { amount: 10.01 }, /exceeds the refundable amount 10\.00/],
    ['paid', { amount: 0 }, /at least 0\.01/],
    ['paid', { amount: 5.001 }, /2 decimal places/],
    ['paid', {}, /amount field is required/],
    ['paid', { amount: '5' }, /must be a number/],
    ['paid', { amount: 1, reason: 'x'.repeat(501) }, /reason/],
  ];
  for (const [reference, body, detail] of cases) {
    assertError(t, await e.api.post(`/v1/payments/${reference}/refunds`, body), 422, detail);
  }
  t.same((await e.api.get('/v1/payments/paid/refunds')).body.data, [], 'no refund was made');
  t.equal((await e.api.get('/v1/payments/paid')).body.data.attributes.status, 'PAID');

  await e.api.post('/v1/payments/paid/refunds', { amount: 10 });
  assertError(t, await e.api.post('/v1/payments/paid/refunds', { amount: 0.01 }), 422, /nothing is left to refund/);
  assertError(t, await e.api.post('/v1/payments/nope/refunds', { amount: 1 }), 404);
  assertError(t, await e.api.get('/v1/payments/nope/refunds'), 404);
  assertError(t, await e.globex.post('/v1/payments/paid/refunds', { amount: 1 }), 404);
});

t.test('money is exact: 100 refunds of 0.01, and 0.1 + 0.2', async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 1, reference: 'pennies' });
  for (let i = 0; i < 100; i++) {
    const res = await e.api.post('/v1/payments/pennies/refunds', { amount: 0.01 });
    t.equal(res.status, 201);
  }
  const meta = (await e.api.get('/v1/payments/pennies/refunds')).body.meta.payment;
  t.same(meta, { reference: 'pennies', status: 'REFUNDED', amount: '1.00', total_refunded: '1.00', refundable_amount: '0.00' });

  await pay(e, { amount: 0.3, reference: 'float' });
  await e.api.post('/v1/payments/float/refunds', { amount: 0.1 });
  const last = await e.api.post('/v1/payments/float/refunds', { amount: 0.2 });
  t.same(last.body.meta.payment, { reference: 'float', status: 'REFUNDED', amount: '0.30', total_refunded: '0.30', refundable_amount: '0.00' });
});

t.test('20 concurrent refunds against one payment leave the books exact', async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 100, reference: 'race' });
  const answers = await Promise.all(Array.from({ length: 20 }, () => e.api.post('/v1/payments/race/refunds', { amount: 7 })));
  const ok = answers.filter((a) => a.status === 201).length;
  t.equal(ok, 14, '14 x 7.00 fit in 100.00');
  t.equal(answers.filter((a) => a.status === 422).length, 6);
  const meta = (await e.api.get('/v1/payments/race/refunds')).body;
  t.equal(meta.data.length, 14);
  t.same(meta.meta.payment, { reference: 'race', status: 'PARTIALLY_REFUNDED', amount: '100.00', total_refunded: '98.00', refundable_amount: '2.00' });
});

t.test('include=refunds puts the refunds in included', async (t) => {
  const e = await emulator(t);
  await pay(e, { amount: 50, reference: 'inc' });
  const a = await e.api.post('/v1/payments/inc/refunds', { amount: 5 });
  const b = await e.api.post('/v1/payments/inc/refunds', { amount: 6 });
  const res = await e.api.get('/v1/payments/inc?include=refunds');
  t.equal(res.status, 200);
  t.same(res.body.data.relationships, {
    refunds: {
      data: [
        { type: 'refunds', id: a.body.data.id },
        { type: 'refunds', id: b.body.data.id },
      ],
    },
  });
  t.same(
    res.body.included.map((r: { id: string }) => r.id),
    [a.body.data.id, b.body.data.id],
  );
  t.equal(res.body.included[0].attributes.amount, '5.00');
  t.notOk('included' in (await e.api.get('/v1/payments/inc')).body);
  assertError(t, await e.api.get('/v1/payments/inc?include=sessions'), 400, /include path "sessions"/);
});
