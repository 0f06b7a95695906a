import t from 'tap';
import type { Scope } from '../../http/auth.js';
import { memoryPersistence } from '../../store/persistence.js';
import { Store } from '../../store/store.js';
import { PaymentMethods, type PaymentMethodRecord } from '../payment-methods/records.js';
import { charged, PLAIN_FIELDS } from './billing.js';
import { Recurring, type RecurringRecord } from './records.js';
import { createRecurring } from './service.js';

const NOW = Date.parse('2027-01-01T12:00:00Z');
const NEXT = Date.parse('2027-01-03T00:00:00Z');

/** What `charged` stands for: the spread, whose fields (and their order) it must give. */
const spread = (s: RecurringRecord, next: number, at: number): RecurringRecord => ({
  ...s,
  retry_count: 0,
  sequence: s.sequence + 1,
  next_billing_date: next,
  updated_at: at,
});

/** A schedule as `POST /v1/recurring-payments` stores it, with the body's optional fields. */
function created(body: Record<string, unknown>): RecurringRecord {
  const store = new Store([Recurring, PaymentMethods] as never, memoryPersistence());
  const scope = { source: { slug: 'acme', currency: 'USD' }, mode: 'test' } as unknown as Scope;
  const card = { id: 'pm_1', source: 'acme', mode: 'test' } as unknown as PaymentMethodRecord;
  return store.transaction((tx) => {
    tx.put(PaymentMethods, card);
    return createRecurring(tx, scope, { payment_method: 'pm_1', amount: 9.99, frequency: 'daily', ...body } as never, NOW);
  });
}

t.test('a charged schedule is the spread of the one billed: the same fields, values and order', async (t) => {
  const shapes: [string, RecurringRecord][] = [
    ['plain (the literal)', created({})],
    ['with an email (spread)', created({ customer_email: 'a@example.com', customer_name: 'A' })],
    ['with a field unset (spread)', { ...created({}), cancelled_at: undefined }],
  ];
  for (const [name, schedule] of shapes) {
    const copy = charged(schedule, NEXT, NOW + 5);
    const want = spread(schedule, NEXT, NOW + 5);
    t.same(Object.keys(copy), Object.keys(want), `${name}: fields in order`);
    t.same(copy, want, `${name}: values`);
    t.not(copy, schedule, `${name}: a new object`);
    t.equal(JSON.stringify(copy), JSON.stringify(want), `${name}: written the same`);
  }
  // The shape the literal copies is the one a schedule is created in (else every charge spreads).
  t.same(Object.keys(created({})), PLAIN_FIELDS, 'a schedule without optional fields has the plain shape');
  // Twice over: a copy of a copy (the next day's charge) stays the plain shape.
  const plain = created({});
  const twice = charged(charged(plain, NEXT, NOW), NEXT + 86_400_000, NOW + 86_400_000);
  t.same(twice, spread(spread(plain, NEXT, NOW), NEXT + 86_400_000, NOW + 86_400_000));
  t.equal(twice.sequence, plain.sequence + 2);
});
