import t from 'tap';
import { assertError, emulator, pay } from '../helpers/emulator.js';

// The API's capture and void endpoints and the payment states they move between; payemu's partial
// capture, the events of each, and the 7-day expiry of an authorization. Each test is titled
// with the sentence it checks. One emulator serves the file; tests keep apart by reference.

const e = await emulator(t, { clockStart: '2027-01-10T09:00:00Z', freezeClock: true });
const events: { name: string; data: Record<string, any> }[] = [];
e.bus.on('domain', (ev) => events.push({ name: ev.name, data: ev.data }));
const named = (reference: string) => events.filter((x) => x.data.reference === reference).map((x) => x.name);
const held = async (reference: string, amount = 100) => (await pay(e, { amount, reference, capture_method: 'manual' })).completed.body.payment;

t.test('capture_method manual authorizes only: the payment is AUTHORIZED (paid false) with payment.authorized', async (t) => {
  await held('cv-held');
  t.match((await e.api.get('/v1/payments/cv-held')).body.data.attributes, { status: 'AUTHORIZED', paid: false });
  t.same(named('cv-held'), ['payment.authorized']);
});

t.test('Capture response attributes: reference, amount, status, captured_at; meta.message; id is an integer', async (t) => {
  const hold = await held('cv-capture');
  const res = await e.api.post('/v1/payments/cv-capture/capture', {});
  t.equal(res.status, 200, 'an action answers 200');
  t.equal(res.body.data.id, hold.id);
  t.type(res.body.data.id, 'number');
  t.same(Object.keys(res.body.data.attributes).sort(), ['amount', 'captured_at', 'reference', 'status']);
  t.match(res.body.data.attributes, { reference: 'cv-capture', amount: '100.00', status: 'PAID', captured_at: '2027-01-10T09:00:00.000000Z' });
  t.type(res.body.meta.message, 'string');
});

t.test('AUTHORIZED -> capture -> PAID: captured_at set; events payment.captured then payment.completed', async (t) => {
  await held('cv-events');
  await e.api.post('/v1/payments/cv-events/capture', {});
  t.match((await e.api.get('/v1/payments/cv-events')).body.data.attributes, { status: 'PAID', paid: true, captured_at: '2027-01-10T09:00:00.000000Z' });
  t.same(named('cv-events'), ['payment.authorized', 'payment.captured', 'payment.completed']);
});

t.test(
  'capture amount defaults to the full authorized amount; a lesser amount becomes the payment amount and the base for refunds; the rest of the hold is released',
  async (t) => {
    await held('cv-partial', 100);
    const res = await e.api.post('/v1/payments/cv-partial/capture', { amount: 60.5 });
    t.equal(res.body.data.attributes.amount, '60.50');
    t.equal((await e.api.get('/v1/payments/cv-partial')).body.data.attributes.amount, '60.50');
    const captured = events.find((x) => x.name === 'payment.captured' && x.data.reference === 'cv-partial')!;
    t.match(captured.data, { amount: 60.5, authorized_amount: 100 });
    assertError(t, await e.api.post('/v1/payments/cv-partial/refunds', { amount: 60.51 }), 422);
    t.equal((await e.api.post('/v1/payments/cv-partial/refunds', { amount: 60.5 })).body.meta.payment.status, 'REFUNDED');
  },
);

t.test('capture: 404 payment not found; 422 payment not authorized, or amount exceeds the hold; nothing changes', async (t) => {
  assertError(t, await e.api.post('/v1/payments/cv-none/capture', {}), 404);
  await held('cv-over', 50);
  assertError(t, await e.api.post('/v1/payments/cv-over/capture', { amount: 50.01 }), 422);
  t.equal((await e.api.get('/v1/payments/cv-over')).body.data.attributes.status, 'AUTHORIZED', 'still held');
  assertError(t, await e.api.post('/v1/payments/cv-over/capture', { amount: 10.001 }), 422, undefined);
  await pay(e, { amount: 5, reference: 'cv-paid' });
  assertError(t, await e.api.post('/v1/payments/cv-paid/capture', {}), 422);
});

t.test('Void response attributes: reference, amount, status VOIDED; meta.message; id is an integer; event payment.voided', async (t) => {
  const hold = await held('cv-void');
  const res = await e.api.post('/v1/payments/cv-void/void');
  t.equal(res.status, 200);
  t.equal(res.body.data.id, hold.id);
  t.same(Object.keys(res.body.data.attributes).sort(), ['amount', 'reference', 'status']);
  t.match(res.body.data.attributes, { reference: 'cv-void', amount: '100.00', status: 'VOIDED' });
  t.type(res.body.meta.message, 'string');
  t.match((await e.api.get('/v1/payments/cv-void')).body.data.attributes, { status: 'VOIDED', paid: false });
  t.same(named('cv-void'), ['payment.authorized', 'payment.voided']);
});

t.test('void: only AUTHORIZED payments; 404; 422 not voidable', async (t) => {
  assertError(t, await e.api.post('/v1/payments/cv-none/void'), 404);
  await pay(e, { amount: 5, reference: 'cv-void-paid' });
  assertError(t, await e.api.post('/v1/payments/cv-void-paid/void'), 422);
  assertError(t, await e.api.post('/v1/payments/cv-void/void'), 422, undefined);
  assertError(t, await e.api.post('/v1/payments/cv-void/capture', {}), 422);
});

t.test('EXPIRED: an authorization older than 7 days is released by the clock, without a webhook', async (t) => {
  await held('cv-expire');
  await e.api.post('/_payemu/clock/advance', { by: '6d' });
  t.equal((await e.api.get('/v1/payments/cv-expire')).body.data.attributes.status, 'AUTHORIZED', 'six days: still held');
  await e.api.post('/_payemu/clock/advance', { by: '1d' });
  t.match((await e.api.get('/v1/payments/cv-expire')).body.data.attributes, { status: 'EXPIRED', paid: false });
  t.same(named('cv-expire'), ['payment.authorized']);
  assertError(t, await e.api.post('/v1/payments/cv-expire/capture', {}), 422);
  t.equal((await e.api.post('/v1/sessions', { amount: 1, reference: 'cv-expire' })).status, 201, 'an EXPIRED payment allows a new session');
});
