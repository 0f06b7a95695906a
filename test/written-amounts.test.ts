import t from 'tap';
import { assertError, emulator } from './helpers/emulator.js';

// Amounts are judged on the number as the JSON text writes it (src/lib/written-numbers.ts): the
// bodies below are sent as text, since JSON.stringify would write the double JSON.parse makes.

const DECIMALS = 'The amount field must have at most 2 decimal places.';

t.test('POST /v1/sessions: an amount with more than two decimals as written is a 422, whatever the double', async (t) => {
  const e = await emulator(t);
  for (const literal of ['0.30000001', '1.005', '0.3000000000000000001', '1.0000000000000000001', '12345e-3', '100.0001E0']) {
    const res = await e.api.post('/v1/sessions', `{"amount": ${literal}}`);
    assertError(t, res, 422);
    t.equal(res.body.errors[0].detail, DECIMALS, literal);
    t.same(res.body.errors[0].meta.errors.amount?.includes(DECIMALS), true, `${literal}: meta.errors.amount`);
  }
});

t.test('POST /v1/sessions: the exact value decides, so trailing zeros and exponents are fine', async (t) => {
  const e = await emulator(t);
  for (const [literal, amount] of [
    ['12.50', 12.5],
    ['12.5', 12.5],
    ['12.500', 12.5],
    ['12.5000000000000000000', 12.5],
    ['1e2', 100],
    ['1.5e1', 15],
    ['1.0e-2', 0.01],
    ['100e-4', 0.01],
    ['1.2345e2', 123.45],
  ] as const) {
    const res = await e.api.post('/v1/sessions', `{"amount": ${literal}}`);
    t.equal(res.status, 201, `${literal}: ${res.text.slice(0, 200)}`);
    t.equal(res.body.data?.attributes.amount, amount, literal);
  }
  // A key given twice is its last value's, as JSON.parse keeps it.
  t.equal((await e.api.post('/v1/sessions', '{"amount": 1.005, "amount": 2.50}')).status, 201, 'the last duplicate is fine');
  assertError(t, await e.api.post('/v1/sessions', '{"amount": 2.50, "amount": 1.005}'), 422);
  // Large amounts: 558157399.69 * 100 is off by more than the float test's tolerance.
  const large = await e.api.post('/v1/tax/calculate', '{"amount": 558157399.69, "rate": 0}');
  t.equal(large.status, 200, `a large two-decimal amount: ${large.text.slice(0, 200)}`);
  t.equal(large.body.data?.attributes.subtotal, '558157399.69');
  // -0 is a zero: where an amount may be 0 it is accepted; the session's amount must be 0.01 or more.
  t.equal((await e.api.post('/v1/sessions', '{"amount": 10, "subtotal": -0, "shipping": 0.000}')).status, 201, '-0 and 0.000');
  const zero = await e.api.post('/v1/sessions', '{"amount": -0}');
  assertError(t, zero, 422);
  t.same(zero.body.errors[0].meta.errors, { amount: ['The amount field must be at least 0.01.'] }, '-0: no decimals error');
  const tax = await e.api.post('/v1/tax/calculate', '{"amount": -0, "rate": 10}');
  t.equal(tax.status, 200, `-0: ${tax.text.slice(0, 200)}`);
});

t.test('nested money fields are named by their dot path, with the other errors of the same 422', async (t) => {
  const e = await emulator(t);
  const session = await e.api.post(
    '/v1/sessions',
    '{"amount": 10, "tax": {"amount": 1, "lines": [{"name": "VAT", "amount": 0.3000000000000000001}]}, "currency": "XXX1"}',
  );
  assertError(t, session, 422);
  t.same(session.body.errors[0].meta.errors['tax.lines.0.amount'], [DECIMALS.replace('amount', 'tax.lines.0.amount')]);
  t.ok(session.body.errors[0].meta.errors.currency, 'and the currency error beside it');
  const invoice = await e.api.post(
    '/v1/invoices',
    `{"customer_name": "Jenny", "customer_email": "jenny@example.com", "currency": "EUR", "due_date": "2027-01-31",
      "items": [{"description": "a", "quantity": 1, "unit_price": 5}, {"description": "b", "quantity": 0, "unit_price": 1.0000000000000000001}]}`,
  );
  assertError(t, invoice, 422);
  t.same(invoice.body.errors[0].meta.errors['items.1.unit_price'], ['The items.1.unit_price field must have at most 2 decimal places.']);
  t.ok(invoice.body.errors[0].meta.errors['items.1.quantity'], 'and the quantity error beside it');
  t.notOk(invoice.body.errors[0].meta.errors['items.0.unit_price'], 'the first item is fine');
  t.match(invoice.body.errors[0].detail, /\(and 1 more error\)/);
});

t.test('a trigger hands its data to its steps as written: the step refuses the amount', async (t) => {
  const e = await emulator(t);
  for (const event of ['payment.completed', 'invoice.created']) {
    const res = await e.api.post('/_payemu/trigger', `{"event": "${event}", "data": {"amount": 0.3000000000000000001}}`);
    assertError(t, res, 422);
    t.match(
      res.body.errors[0].detail,
      /^The trigger's step "\w+" \(POST \/v1\/\w+\) was refused: The (amount|items\.0\.unit_price) field must have at most 2 decimal places\.$/,
      event,
    );
  }
  const fine = await e.api.post('/_payemu/trigger', '{"event": "payment.completed", "data": {"amount": 12.500}}');
  t.equal(fine.status, 200, fine.text.slice(0, 300));
  t.equal((await e.api.get('/v1/payments')).body.data[0].attributes.amount, '12.50');
});

t.test('a refused amount stores nothing: no session, payment or event, and the Idempotency-Key is not saved', async (t) => {
  const e = await emulator(t, { freezeClock: true });
  const before = e.snapshot.export({ all: true }).data;
  const key = { 'Idempotency-Key': 'written-1' };
  assertError(t, await e.api.post('/v1/sessions', '{"amount": 0.3000000000000000001}', key), 422);
  assertError(t, await e.api.post('/v1/payment-links', '{"title": "x", "amount": 1.999000000000000000001}', key), 422);
  // (A trigger's run saves its refusal under a key, as any refusal of a run: here it has none.)
  assertError(t, await e.api.post('/_payemu/trigger', '{"event": "payment.completed", "data": {"amount": 1.005}}'), 422);
  t.same(e.snapshot.export({ all: true }).data, before, 'the store is as it was');
  t.equal((await e.api.get('/_payemu/events')).body.events.length, 0, 'no event');
  // The key was not saved with the 422: the same key with another body is a new request.
  const created = await e.api.post('/v1/sessions', '{"amount": 0.30}', key);
  t.equal(created.status, 201, created.text.slice(0, 200));
});
