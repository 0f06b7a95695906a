import t, { type Test } from 'tap';
import { runPayemu } from './helpers/cli.js';
import { assertError, emulator, type Answer, type Client, type TestEmulator } from './helpers/emulator.js';

/**
 * A card number that fails the Luhn check, or has fewer than 12 digits, is a typing mistake:
 * refused before any payment attempt, on every path that takes a card. No payment, no event.
 */
const MISTYPED = [
  '4242 4242 4242 4241', // 4242 4242 4242 4242 with the last digit wrong
  '4242424242424241',
  '4000-0000-0000-0003',
  '4000 0027 6000 3185', // the 3-D Secure card, mistyped: no challenge either
  '5555 5555 5555 4445',
  '3782 822463 10006',
  '4242 4242 42', // 10 digits
];

function assertCardRefused(t: Test, answer: Answer, card: string): void {
  assertError(t, answer, 422);
  const messages: string[] | undefined = answer.body?.errors?.[0]?.meta?.errors?.card_number;
  t.ok(messages?.length, `${card}: meta.errors.card_number`);
  t.match(messages?.join(' '), /card number/i, `${card}: the message is about the card number`);
}

async function assertNothingHappened(t: Test, e: TestEmulator, as: Client, reference: string): Promise<void> {
  t.equal((await as.get(`/v1/payments/${encodeURIComponent(reference)}`)).status, 404, `no payment for ${reference}`);
  t.same((await as.get('/_payemu/events')).body.events, [], 'no event');
  t.same(e.events.list(), [], 'nothing in the event log');
}

t.test('POST /_payemu/sessions/{id}/complete: 422 on card_number, no payment, no event, the session still open', async (t) => {
  const e = await emulator(t);
  for (const as of [e.api, e.live]) {
    const session = await as.post('/v1/sessions', { amount: 10, reference: 'typo' });
    t.equal(session.status, 201);
    for (const card of MISTYPED) {
      assertCardRefused(t, await as.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: card, three_ds: 'pass' }), card);
    }
    await assertNothingHappened(t, e, as, 'typo');
    t.match((await as.get(`/v1/sessions/${session.body.data.id}`)).body.data.attributes, { status: 'open', payment_status: 'unpaid' });
  }
  // A Luhn-valid number that is no test card is still an attempt: card_not_supported in test mode.
  const unknown = await e.api.post('/v1/sessions', { amount: 10, reference: 'unknown' });
  const answer = await e.api.post(`/_payemu/sessions/${unknown.body.data.id}/complete`, { card_number: '4012 8888 8888 1881' });
  t.equal(answer.status, 200);
  t.match(answer.body.payment, { status: 'FAILED', failure_code: 'card_not_supported' });
});

t.test('invoices and payment links paid through the control plane refuse them too', async (t) => {
  const e = await emulator(t);
  const invoice = await e.api.post('/v1/invoices', {
    customer_name: 'Ada',
    customer_email: 'ada@example.com',
    currency: 'USD',
    due_date: '2099-01-01',
    items: [{ description: 'Mug', quantity: 1, unit_price: 12 }],
  });
  t.equal(invoice.status, 201, invoice.text.slice(0, 200));
  t.equal((await e.api.post(`/v1/invoices/${invoice.body.data.id}/send`, {})).status, 200);
  const link = await e.api.post('/v1/payment-links', { title: 'Mug', amount: 12 });
  t.equal(link.status, 201);
  const before = (await e.api.get('/_payemu/events')).body.events.length;
  for (const card of MISTYPED) {
    assertCardRefused(t, await e.api.post(`/_payemu/invoices/${invoice.body.data.id}/pay`, { card_number: card, three_ds: 'pass' }), card);
    assertCardRefused(t, await e.api.post(`/_payemu/payment-links/${link.body.data.id}/pay`, { card_number: card, three_ds: 'pass' }), card);
  }
  t.equal((await e.api.get(`/v1/payments/${invoice.body.data.id}`)).status, 404, 'no payment for the invoice');
  t.equal((await e.api.get('/v1/payments')).body.data.length, 0, 'no payment at all');
  t.equal((await e.api.get('/_payemu/events')).body.events.length, before, 'no new event');
  t.equal((await e.api.get(`/v1/invoices/${invoice.body.data.id}`)).body.data.attributes.status, 'sent');
  t.equal((await e.api.get(`/v1/payment-links/${link.body.data.id}`)).body.data.attributes.uses_count, 0);
});

t.test('a payment-method session (card update) refuses them and keeps the old card', async (t) => {
  const e = await emulator(t);
  const saved = await e.api.post('/v1/sessions', { amount: 1, save_payment_method: true });
  const paid = await e.api.post(`/_payemu/sessions/${saved.body.data.id}/complete`, { card_number: '4242424242424242' });
  const method = paid.body.payment.payment_method;
  t.equal((await e.api.post('/v1/recurring-payments', { payment_method: method, amount: 5, frequency: 'monthly', reference: 'sub' })).status, 201);
  const update = await e.api.post('/v1/recurring-payments/sub/payment-method-session', {});
  t.equal(update.status, 201);
  const before = (await e.api.get('/_payemu/events')).body.events.length;
  for (const card of MISTYPED) {
    assertCardRefused(t, await e.api.post(`/_payemu/sessions/${update.body.data.id}/complete`, { card_number: card, three_ds: 'pass' }), card);
  }
  t.equal((await e.api.get('/v1/recurring-payments/sub')).body.data.attributes.payment_method, method, 'the card on file is unchanged');
  t.equal((await e.api.get('/_payemu/events')).body.events.length, before, 'no new event');
});

t.test('every test card of the table passes the check (Amex has 15 digits)', async (t) => {
  const e = await emulator(t);
  for (const card of [
    '4242 4242 4242 4242',
    '5555 5555 5555 4444',
    '3782 822463 10005',
    '4000 0000 0000 0002',
    '4000 0000 0000 9995',
    '4000 0000 0000 0069',
    '4000 0000 0000 0127',
    '4000 0000 0000 0341',
  ]) {
    const session = await e.api.post('/v1/sessions', { amount: 10 });
    const answer = await e.api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: card });
    t.equal(answer.status, 200, `${card} is an attempt`);
    t.not(answer.body.payment.failure_code, 'card_not_supported', `${card} is a test card`);
  }
  const challenge = await e.api.post('/v1/sessions', { amount: 10 });
  t.equal(
    (await e.api.post(`/_payemu/sessions/${challenge.body.data.id}/complete`, { card_number: '4000 0027 6000 3184', three_ds: 'pass' })).body.payment.status,
    'PAID',
  );
});

t.test('payemu pay --card with a mistyped number exits non-zero with the message; nothing is paid', async (t) => {
  const e = await emulator(t);
  const session = await e.api.post('/v1/sessions', { amount: 10, reference: 'cli-typo' });
  const res = await runPayemu(t, ['pay', session.body.data.id, '--card', '4242424242424241'], { env: { PAYEMU_URL: e.url } });
  t.equal(res.code, 1, 'exit 1: refused');
  t.match(res.stderr, /422/);
  t.match(res.stderr, /card_number: .*card number/i, 'names the field and says why');
  await assertNothingHappened(t, e, e.api, 'cli-typo');
  const ok = await runPayemu(t, ['pay', session.body.data.id, '--card', '4242 4242 4242 4242'], { env: { PAYEMU_URL: e.url } });
  t.equal(ok.code, 0, 'the corrected number pays');
  t.match(ok.stdout, /PAID 10\.00 USD/);
});
