import t from 'tap';
import { emulator, pay } from '../helpers/emulator.js';

// payemu's ids and formats: the id of each thing, timestamps ISO 8601 UTC with microseconds from
// the virtual clock, dates YYYY-MM-DD. (The invoice id and number are in invoices.test.ts.) Each
// test is titled with the sentence it checks. One emulator serves the file.

const e = await emulator(t, { clockStart: '2027-01-10T09:00:00.123Z', freezeClock: true });
const events: { id: string; name: string; data: Record<string, any> }[] = [];
e.bus.on('domain', (ev) => events.push({ id: ev.id, name: ev.name, data: ev.data }));
const BASE62 = '[0-9A-Za-z]';
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

const { session, completed } = await pay(e, { amount: 10, reference: 'ids-1', save_payment_method: true });
const pm = completed.body.payment.payment_method as string;

t.test('session, payment-method session: cs_ + 24 random base62 characters', async (t) => {
  t.match(session.body.data.id, new RegExp(`^cs_${BASE62}{24}$`));
  await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 1, frequency: 'monthly', reference: 'ids-sub', start_date: '2027-02-01' });
  const pms = await e.api.post('/v1/recurring-payments/ids-sub/payment-method-session', {});
  t.match(pms.body.data.id, new RegExp(`^cs_${BASE62}{24}$`));
});

t.test(
  'payment: integer, increasing per store; string in the single-payment response, integer in capture/void responses and in webhook payment_id',
  async (t) => {
    const id = completed.body.payment.id as number;
    t.ok(Number.isInteger(id));
    t.equal((await e.api.get('/v1/payments/ids-1')).body.data.id, String(id));
    t.equal(events.find((x) => x.name === 'payment.completed' && x.data.reference === 'ids-1')!.data.payment_id, id);
    const held = (await pay(e, { amount: 5, reference: 'ids-held', capture_method: 'manual' })).completed.body.payment.id;
    t.ok(held > id, 'increasing');
    t.equal((await e.api.post('/v1/payments/ids-held/capture', {})).body.data.id, held);
    await pay(e, { amount: 5, reference: 'ids-void', capture_method: 'manual' });
    t.type((await e.api.post('/v1/payments/ids-void/void')).body.data.id, 'number');
  },
);

t.test('refund re_ + 24 base62; payment method pm_ + 24 base62; charge ch_ + 24 base62', async (t) => {
  t.match((await e.api.post('/v1/payments/ids-1/refunds', { amount: 1 })).body.data.id, new RegExp(`^re_${BASE62}{24}$`));
  t.match(pm, new RegExp(`^pm_${BASE62}{24}$`));
  t.match((await e.api.post('/v1/charges', { payment_method: pm, amount: 1 })).body.data.id, new RegExp(`^ch_${BASE62}{24}$`));
});

t.test('tax calculation: tc_ + 24 random base62 characters, a new one per call', async (t) => {
  const ids = new Set<string>();
  for (let i = 0; i < 3; i++) {
    const id = (await e.api.post('/v1/tax/calculate', { amount: 10 })).body.data.id;
    t.match(id, new RegExp(`^tc_${BASE62}{24}$`));
    ids.add(id);
  }
  t.equal(ids.size, 3);
});

t.test('payment link: integer shown as a string ("17"); the path takes the integer', async (t) => {
  const link = await e.api.post('/v1/payment-links', { title: 'x', amount: 1 });
  t.match(link.body.data.id, /^[1-9]\d*$/);
  t.equal((await e.api.get(`/v1/payment-links/${link.body.data.id}`)).status, 200);
});

t.test('event: UUID v4', async (t) => {
  t.ok(events.length > 0);
  for (const ev of events) t.match(ev.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const listed = await e.api.get('/_payemu/events');
  t.same(new Set(listed.body.events.map((x: { id: string }) => x.id)), new Set(events.map((x) => x.id)));
});

t.test('Timestamps are ISO 8601 UTC with microseconds; dates are YYYY-MM-DD; every timestamp comes from the virtual clock', async (t) => {
  const payment = (await e.api.get('/v1/payments/ids-1')).body.data.attributes;
  t.equal(payment.created_at, '2027-01-10T09:00:00.123000Z', 'the virtual clock, to the microsecond');
  t.match(session.body.data.attributes.expires_at, TIMESTAMP);
  const schedule = (await e.api.get('/v1/recurring-payments/ids-sub')).body.data.attributes;
  t.match(schedule.next_billing_date, /^\d{4}-\d\d-\d\d$/);
  const listed = await e.api.get('/_payemu/events');
  for (const ev of listed.body.events) t.match(ev.created_at, TIMESTAMP);
});
