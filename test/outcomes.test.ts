import t, { type Test } from 'tap';
import { assertError, emulator, type TestEmulator, savedCard } from './helpers/emulator.js';

async function setup(t: Test) {
  const e = await emulator(t, { clockStart: '2027-01-31T09:00:00Z', freezeClock: true });
  const pm = await savedCard(e);
  return { e, pm };
}

const script = (e: TestEmulator, body: Record<string, unknown>) => e.api.post('/_payemu/outcomes', body);
const list = async (e: TestEmulator) => (await e.api.get('/_payemu/outcomes')).body.outcomes;
const charge = async (e: TestEmulator, pm: string, reference?: string) =>
  (await e.api.post('/v1/charges', { payment_method: pm, amount: 5, ...(reference ? { reference } : {}) })).body.data.attributes;

t.test('dunning: the third monthly charge fails, the retry succeeds', async (t) => {
  const { e, pm } = await setup(t);
  await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 19, frequency: 'monthly', reference: 'sub-1', start_date: '2027-02-01' });
  const created = await script(e, { schedule: 'sub-1', sequence: ['approved', 'approved', 'insufficient_funds', 'approved'] });
  t.equal(created.status, 201);
  t.match(created.body, { id: /^out_/, schedule: 'sub-1', sequence: ['approved', 'approved', 'insufficient_funds', 'approved'], remaining: 4 });
  const events: string[] = [];
  e.bus.on('domain', (ev) => events.push(`${ev.name} ${ev.data.payment_reference ?? ev.data.reference} ${ev.data.failure_code ?? ''}`.trim()));
  await e.clock.advance('1d'); // Feb 1: the first charge
  await e.clock.advance('28d'); // Mar 1: the second
  t.match(await list(e), [{ schedule: 'sub-1', remaining: 2 }]);
  await e.clock.advance('31d'); // Apr 1: the third
  t.match((await e.api.get('/v1/recurring-payments/sub-1')).body.data.attributes, { status: 'active', retry_count: 1, next_billing_date: '2027-04-02' });
  await e.clock.advance('1d'); // the retry, a day later
  t.match((await e.api.get('/v1/payments/sub-1-0003')).body.data.attributes, { status: 'PAID' });
  t.match((await e.api.get('/v1/recurring-payments/sub-1')).body.data.attributes, { status: 'active', retry_count: 0, next_billing_date: '2027-05-01' });
  t.same(await list(e), [], 'a used-up script leaves the list');
  t.same(events, [
    'payment.completed sub-1-0001',
    'recurring.charged sub-1-0001',
    'payment.completed sub-1-0002',
    'recurring.charged sub-1-0002',
    'payment.failed sub-1-0003 insufficient_funds',
    'recurring.failed sub-1-0003 insufficient_funds',
    'payment.completed sub-1-0003',
    'recurring.charged sub-1-0003',
  ]);
  await e.clock.advance('29d');
  t.match((await e.api.get('/v1/payments/sub-1-0004')).body.data.attributes, { status: 'PAID' }, 'then the card decides again');
});

t.test('a reference script wins over a schedule script, which wins over a card script; only the winner takes a step', async (t) => {
  const { e, pm } = await setup(t);
  await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 1, frequency: 'monthly', reference: 'm', start_date: '2027-02-01' });
  await script(e, { payment_method: pm, sequence: ['expired_card', 'expired_card'] });
  await script(e, { schedule: 'm', sequence: ['card_declined'] });
  await script(e, { reference: 'm-0001', sequence: ['incorrect_cvc'] });
  const failures: string[] = [];
  e.bus.on('domain', (ev) => ev.name === 'payment.failed' && failures.push(`${ev.data.reference} ${ev.data.failure_code}`));
  await e.clock.advance('1d');
  t.same(failures, ['m-0001 incorrect_cvc'], 'the reference first');
  t.same(
    (await list(e)).map((s: any) => [s.payment_method ?? s.schedule, s.remaining]),
    [
      [pm, 2],
      ['m', 1],
    ],
    'the weaker scripts took no step',
  );
  await e.clock.advance('1d'); // the first retry
  t.same(failures.at(-1), 'm-0001 card_declined', 'then the schedule');
  t.match(await charge(e, pm, 'top-up'), { status: 'FAILED', failure_code: 'expired_card' }, 'a charge on the card takes the card script');
  await e.clock.advance('3d'); // the second retry
  t.same(failures.at(-1), 'm-0001 expired_card', 'then the card');
  t.same(await list(e), []);
  t.match(await charge(e, pm), { status: 'PAID' });
});

t.test('a second script for the same target replaces the first; DELETE removes them all', async (t) => {
  const { e, pm } = await setup(t);
  const first = (await script(e, { payment_method: pm, sequence: ['card_declined', 'card_declined'] })).body;
  const second = (await script(e, { payment_method: pm, sequence: ['insufficient_funds'] })).body;
  t.not(second.id, first.id);
  t.same(await list(e), [{ id: second.id, payment_method: pm, sequence: ['insufficient_funds'], remaining: 1 }]);
  t.match(await charge(e, pm), { failure_code: 'insufficient_funds' });
  t.match(await charge(e, pm), { status: 'PAID' }, 'the replaced script is gone');
  await script(e, { reference: 'a', sequence: ['approved'] });
  await script(e, { reference: 'b', sequence: ['approved'] });
  t.same((await e.globex.get('/_payemu/outcomes')).body, { outcomes: [] }, "another Source sees none of this Source's scripts");
  const cleared = await e.api.request('DELETE', '/_payemu/outcomes');
  t.same(cleared.body, { removed: 2 });
  t.same(await list(e), []);
});

t.test('every card payment path counts: checkout, charge, recurring charge, invoice, payment link', async (t) => {
  const { e, pm } = await setup(t);
  // Checkout: a reference script declines the approved card, then approves a declining one.
  const session = await e.api.post('/v1/sessions', { amount: 3, reference: 'order-1' });
  await script(e, { reference: 'order-1', sequence: ['card_declined', 'approved'] });
  const declined = await e.api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: '4242424242424242' });
  t.match(declined.body.payment, { status: 'FAILED', failure_code: 'card_declined' });
  const approved = await e.api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: '4000000000000002' });
  t.match(approved.body.payment, { status: 'PAID' });
  // Charge, by its reference.
  await script(e, { reference: 'top-up', sequence: ['expired_card'] });
  t.match(await charge(e, pm, 'top-up'), { status: 'FAILED', failure_code: 'expired_card' });
  // Invoice: its payment's reference is the invoice id.
  const invoice = await e.api.post('/v1/invoices', {
    customer_name: 'Ada',
    currency: 'USD',
    customer_email: 'ada@example.com',
    due_date: '2027-02-10',
    items: [{ description: 'Work', quantity: 1, unit_price: 10 }],
  });
  const id = invoice.body.data.id;
  await e.api.post(`/v1/invoices/${id}/send`, {});
  await script(e, { reference: id, sequence: ['insufficient_funds'] });
  const paid = await e.api.post(`/_payemu/invoices/${id}/pay`, { card_number: '4242424242424242' });
  t.match(paid.body.payment, { status: 'FAILED', failure_code: 'insufficient_funds' });
  t.equal(paid.body.invoice.status, 'sent', 'the invoice stays payable');
  // Payment link: its checkouts match a reference script naming the link.
  const link = await e.api.post('/v1/payment-links', { title: 'Tee', amount: 20 });
  await script(e, { reference: link.body.data.id, sequence: ['card_declined'] });
  const linkPay = await e.api.post(`/_payemu/payment-links/${link.body.data.id}/pay`, { card_number: '4242424242424242' });
  t.match(linkPay.body.payment, { status: 'FAILED', failure_code: 'card_declined' });
  // Recurring charge: covered by the dunning story; every script is used up.
  t.same(await list(e), []);
});

t.test('a 3-D Secure card still asks for its challenge first; the script decides once it is answered', async (t) => {
  const { e } = await setup(t);
  const session = await e.api.post('/v1/sessions', { amount: 3, reference: 'tds' });
  await script(e, { reference: 'tds', sequence: ['approved'] });
  const asked = await e.api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: '4000002760003184' });
  assertError(t, asked, 422, /3-D Secure/);
  t.match(await list(e), [{ reference: 'tds', remaining: 1 }], 'the challenge takes no step');
  const answered = await e.api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: '4000002760003184', three_ds: 'fail' });
  t.match(answered.body.payment, { status: 'PAID' });
  t.same(await list(e), []);
});

t.test('refusals: 422 saying what is wrong, nothing stored', async (t) => {
  const { e, pm } = await setup(t);
  assertError(t, await script(e, { payment_method: pm, sequence: ['approved', 'stolen_card'] }), 422, /"stolen_card" is not an outcome/);
  assertError(t, await script(e, { payment_method: pm, sequence: [] }), 422, /at least one outcome/);
  assertError(t, await script(e, { payment_method: pm }), 422);
  assertError(t, await script(e, { sequence: ['approved'] }), 422, /one of payment_method, schedule or reference/);
  assertError(t, await script(e, { payment_method: pm, reference: 'x', sequence: ['approved'] }), 422, /one target, not 2/);
  assertError(t, await script(e, { payment_method: `pm_${'A'.repeat(24)}`, sequence: ['approved'] }), 422, /not a card saved by this Source/);
  assertError(t, await script(e, { schedule: 'nope', sequence: ['approved'] }), 422, /No recurring payment "nope"/);
  assertError(t, await e.globex.post('/_payemu/outcomes', { payment_method: pm, sequence: ['approved'] }), 422, /not a card saved by this Source/);
  t.same(await list(e), []);
  t.equal((await script(e, { reference: 'not-yet-used', sequence: ['approved'] })).status, 201, 'a reference may be one not used yet');
});

t.test('library: outcomes.add / list / clear', async (t) => {
  const { e, pm } = await setup(t);
  const added = e.outcomes.add({ payment_method: pm, sequence: ['card_declined'] });
  t.match(added, { id: /^out_/, payment_method: pm, remaining: 1 });
  t.same(e.outcomes.list(), [added]);
  t.same(e.outcomes.list({ mode: 'live' }), []);
  t.throws(() => e.outcomes.add({ reference: 'r', sequence: ['nope' as never] }), /not an outcome/);
  t.match(await charge(e, pm), { failure_code: 'card_declined' });
  e.outcomes.add({ reference: 'r', sequence: ['approved'] });
  t.equal(e.outcomes.clear(), 1);
  t.same(e.outcomes.list(), []);
});
