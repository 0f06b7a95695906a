import t from 'tap';
import { memoryPersistence } from '../../store/persistence.js';
import { Store } from '../../store/store.js';
import { Events } from '../../webhooks/records.js';
import { Payments } from '../common/payment-records.js';
import { Meta } from '../meta/records.js';
import { type PaymentAttempt, recordAttempt, recordPayment } from './record.js';

const NOW = Date.parse('2027-01-02T00:00:00Z');

const charge: PaymentAttempt = {
  source: 'acme',
  mode: 'test',
  reference: 'rp_abc-0001',
  amount: 999 as PaymentAttempt['amount'],
  currency: 'USD',
  capture_method: 'automatic',
  card_brand: 'visa',
  card_last: '4242',
  payment_method: 'pm_1',
  metadata: {},
  origin: { recurring_reference: 'rp_abc' },
};

/** The payment and the events a fresh store's transaction records for `attempt`, by `record`. */
function recorded(record: typeof recordPayment, attempt: PaymentAttempt) {
  const store = new Store([Payments, Meta, Events] as never, memoryPersistence());
  return store.transaction((tx) => {
    const payment = record(tx, attempt, NOW);
    return { payment, events: tx.events.map(({ name, data }) => ({ name, data })) };
  });
}

t.test("a plain recurring charge's payment is the one recorded field by field: the same fields, order and event", async (t) => {
  const variants: [string, PaymentAttempt][] = [
    ['plain', charge],
    ['no metadata', { ...charge, metadata: undefined }],
    ['with an email (field by field)', { ...charge, customer_email: 'a@example.com' }],
    ['with metadata (field by field)', { ...charge, metadata: { plan: 'gold' } }],
    ['an off-session charge (field by field)', { ...charge, origin: { charge_id: 'ch_1' } }],
    ['declined (field by field)', { ...charge, failure: { code: 'card_declined', message: 'declined' } }],
  ];
  for (const [name, attempt] of variants) {
    const fast = recorded(recordPayment, attempt);
    const slow = recorded((tx, a, now) => recordAttempt(tx, a, undefined, now), attempt);
    t.same(Object.keys(fast.payment), Object.keys(slow.payment), `${name}: fields in order`);
    t.same(fast.payment, slow.payment, `${name}: values`);
    t.same(fast.events, slow.events, `${name}: the event`);
  }
  t.same(Object.keys(recorded(recordPayment, charge).payment).slice(-2), ['recurring_reference', 'payment_method']);
});
