import t, { type Test } from 'tap';
import { assertError, emulator, pay, type TestEmulator } from '../helpers/emulator.js';

// DESIGN.md 4 (invoice `number` per Source and mode) and 6 (Invoices), with the decisions taken
// where they are silent (docs/api.md, Invoices). Each test is titled with the sentence it checks.

const body = (over: Record<string, unknown> = {}) => ({
  customer_name: 'Ada Lovelace',
  customer_email: 'ada@example.com',
  currency: 'USD',
  due_date: '2027-02-10',
  items: [
    { description: 'Consulting', quantity: 2, unit_price: 50 },
    { description: 'Travel', quantity: 1, unit_price: 0.5 },
  ],
  ...over,
});

async function setup(t: Test) {
  const e = await emulator(t, { clockStart: '2027-02-01T10:00:00Z', freezeClock: true });
  const events: { name: string; source: string; data: Record<string, any> }[] = [];
  e.bus.on('domain', (ev) => events.push({ name: ev.name, source: ev.source, data: ev.data }));
  return { e, events };
}

const create = async (e: TestEmulator, over: Record<string, unknown> = {}, as = e.api) => {
  const res = await as.post('/v1/invoices', body(over));
  if (res.status !== 201) throw new Error(`invoice not created: ${res.text}`);
  return res.body.data as { id: string; attributes: Record<string, any> };
};

t.test('invoice: inv_ + 24 base62; number INV-000001 per Source and mode', async (t) => {
  const { e } = await setup(t);
  const first = await create(e);
  t.match(first.id, /^inv_[0-9A-Za-z]{24}$/);
  t.equal(first.attributes.number, 'INV-000001');
  t.equal((await create(e)).attributes.number, 'INV-000002');
  t.equal((await create(e, {}, e.live)).attributes.number, 'INV-000001', 'live mode counts on its own');
  t.equal((await create(e, { currency: 'EUR' }, e.globex)).attributes.number, 'INV-000001', 'another Source counts on its own');
});

t.test('Totals: subtotal = sum of quantity × unit_price; tax is charged on subtotal − discount; total = subtotal − discount + tax', async (t) => {
  const { e } = await setup(t);
  t.match((await create(e, { discount: 10.5, tax_rate: 20 })).attributes, {
    subtotal: '100.50',
    discount: '10.50',
    tax_rate: 20,
    tax_amount: '18.00',
    total: '108.00',
  });
  t.match((await create(e, { apply_tax: true })).attributes, { tax_rate: 7.25, tax_amount: '7.29', total: '107.79' }, 'apply_tax: the team rate, half up');
});

t.test('A discount above the subtotal is a 422; an explicit tax_rate wins over apply_tax', async (t) => {
  const { e } = await setup(t);
  const res = await e.api.post('/v1/invoices', body({ discount: 100.51 }));
  assertError(t, res, 422);
  t.ok(res.body.errors[0].meta.errors.discount, 'names discount');
  t.match((await create(e, { apply_tax: true, tax_rate: 10 })).attributes, { tax_rate: 10, tax_amount: '10.05' });
  t.equal((await create(e, { discount: 100.5 })).attributes.total, '0.00', 'a discount equal to the subtotal is allowed');
});

t.test('Send only from draft; pay only when sent or overdue', async (t) => {
  const { e } = await setup(t);
  const { id } = await create(e);
  assertError(t, await e.api.post(`/_payemu/invoices/${id}/pay`, { card_number: '4242424242424242' }), 422, /draft/);
  t.equal((await e.api.post(`/v1/invoices/${id}/send`)).body.data.attributes.status, 'sent');
  assertError(t, await e.api.post(`/v1/invoices/${id}/send`), 422);
  t.equal((await e.api.post(`/_payemu/invoices/${id}/pay`, { card_number: '4242424242424242' })).body.invoice.status, 'paid');
});

t.test('PATCH of a non-draft is a 422 "Only draft invoices can be modified"', async (t) => {
  const { e } = await setup(t);
  const { id } = await create(e);
  await e.api.post(`/v1/invoices/${id}/send`);
  const res = await e.api.request('PATCH', `/v1/invoices/${id}`, { notes: 'late' });
  assertError(t, res, 422);
  t.equal(res.body.errors[0].detail, 'Only draft invoices can be modified');
});

t.test('Create emits invoice.created, send invoice.sent, payment invoice.paid (and payment.completed)', async (t) => {
  const { e, events } = await setup(t);
  const { id } = await create(e);
  await e.api.post(`/v1/invoices/${id}/send`);
  await e.api.post(`/_payemu/invoices/${id}/pay`, { card_number: '4242424242424242' });
  t.same(
    events.map((x) => x.name),
    ['invoice.created', 'invoice.sent', 'payment.completed', 'invoice.paid'],
  );
  t.match(events.at(-1)!.data, { invoice_id: id, status: 'paid', total: 100.5, payment_id: Number });
});

t.test('an invoice whose total is 0.00 (discount equal to the subtotal) is paid when sent, with invoice.paid and no payment', async (t) => {
  const { e, events } = await setup(t);
  const { id, attributes } = await create(e, { discount: 100.5 });
  t.equal(attributes.total, '0.00');
  const sent = await e.api.post(`/v1/invoices/${id}/send`);
  t.equal(sent.status, 200);
  t.match(sent.body.data.attributes, {
    status: 'paid',
    total: '0.00',
    sent_at: '2027-02-01T10:00:00.000000Z',
    paid_at: '2027-02-01T10:00:00.000000Z',
    payment_id: null,
  });
  t.match(sent.body.meta.message, /paid/);
  t.same(
    events.map((x) => x.name),
    ['invoice.created', 'invoice.sent', 'invoice.paid'],
    'invoice.sent then invoice.paid; no payment.* event',
  );
  t.match(events[1]!.data, { status: 'sent', total: 0 });
  t.match(events[2]!.data, { invoice_id: id, status: 'paid', total: 0 });
  t.notOk('payment_id' in events[2]!.data, 'invoice.paid names no payment');
  t.equal((await e.api.get('/v1/payments')).body.meta.total, 0, 'no payment is made');
  assertError(t, await e.api.post(`/_payemu/invoices/${id}/pay`, { card_number: '4242424242424242' }), 409);
  // A total above zero is sent as usual.
  const { id: other } = await create(e, { discount: 100.49 });
  t.equal((await e.api.post(`/v1/invoices/${other}/send`)).body.data.attributes.status, 'sent', '0.01 left to pay: sent, not paid');
  const later = await e.api.post('/_payemu/clock/advance', { by: '30d' });
  t.equal(later.body.ran['invoice.overdue'], 1, 'only the unpaid one turns overdue');
  t.equal((await e.api.get(`/v1/invoices/${id}`)).body.data.attributes.status, 'paid', 'a paid invoice never does');
});

t.test('a reset restarts invoice numbering for that Source and mode (INV-000001), while payment ids keep increasing', async (t) => {
  const { e } = await setup(t);
  await create(e);
  await create(e);
  await create(e, {}, e.live);
  await create(e, { currency: 'EUR' }, e.globex);
  await pay(e, { amount: 1, reference: 'before-1' });
  await pay(e, { amount: 1, reference: 'before-2' });
  const reset = await e.api.post('/_payemu/reset', {});
  t.equal(reset.status, 200);
  t.equal((await create(e)).attributes.number, 'INV-000001', 'numbering restarts in the reset scope');
  t.equal((await create(e)).attributes.number, 'INV-000002');
  t.equal((await create(e, {}, e.live)).attributes.number, 'INV-000002', 'live mode of the Source was not reset');
  t.equal((await create(e, { currency: 'EUR' }, e.globex)).attributes.number, 'INV-000002', 'another Source was not reset');
  const after = await pay(e, { amount: 1, reference: 'after' });
  t.equal(after.completed.body.payment.id, 3, 'payment ids keep increasing');
  await e.api.post('/_payemu/reset', { all: true });
  t.equal((await create(e, {}, e.live)).attributes.number, 'INV-000001', 'reset all restarts every numbering');
  t.equal((await create(e, { currency: 'EUR' }, e.globex)).attributes.number, 'INV-000001');
  t.equal((await pay(e, { amount: 1, reference: 'after-all' })).completed.body.payment.id, 4, 'and payment ids still increase');
});

t.test(
  'Invoices: type invoices, attributes number, status, the request fields, items with their amount, subtotal, discount, tax_rate, tax_amount, total, payment_url, sent_at, paid_at, created_at, updated_at; a created invoice is a draft',
  async (t) => {
    const { e } = await setup(t);
    const res = await e.api.post('/v1/invoices', body({ customer_address: '1 Analytical Way', notes: 'Thanks', terms: 'Net 10', metadata: { po: '7' } }));
    t.equal(res.status, 201);
    t.equal(res.body.data.type, 'invoices');
    t.match(res.body.data.attributes, {
      number: 'INV-000001',
      status: 'draft',
      customer_name: 'Ada Lovelace',
      customer_email: 'ada@example.com',
      customer_address: '1 Analytical Way',
      currency: 'USD',
      due_date: '2027-02-10',
      notes: 'Thanks',
      terms: 'Net 10',
      metadata: { po: '7' },
      items: [
        { description: 'Consulting', quantity: 2, unit_price: '50.00', amount: '100.00' },
        { description: 'Travel', quantity: 1, unit_price: '0.50', amount: '0.50' },
      ],
      subtotal: '100.50',
      discount: '0.00',
      tax_amount: '0.00',
      total: '100.50',
      payment_url: /^http:\/\//,
      sent_at: null,
      paid_at: null,
      created_at: '2027-02-01T10:00:00.000000Z',
      updated_at: '2027-02-01T10:00:00.000000Z',
    });
  },
);

t.test('Create request rules: customer_name, customer_email, currency, due_date (today or later) and items (at least 1) are required', async (t) => {
  const { e } = await setup(t);
  for (const field of ['customer_name', 'customer_email', 'currency', 'due_date', 'items']) {
    const res = await e.api.post('/v1/invoices', body({ [field]: undefined }));
    assertError(t, res, 422);
    t.ok(res.body.errors[0].meta.errors[field], `${field} is required`);
  }
  const past = await e.api.post('/v1/invoices', body({ due_date: '2027-01-31' }));
  t.ok(past.body.errors[0].meta.errors.due_date, 'a due date before today is refused');
  t.equal((await e.api.post('/v1/invoices', body({ due_date: '2027-02-01' }))).status, 201, 'today is allowed');
  t.ok((await e.api.post('/v1/invoices', body({ items: [] }))).body.errors[0].meta.errors.items, 'at least one item');
});

t.test(
  'Update request: all fields optional with the same rules; when items is present it needs at least 1 entry, each with description, quantity and unit_price',
  async (t) => {
    const { e } = await setup(t);
    const { id } = await create(e);
    const patched = await e.api.request('PATCH', `/v1/invoices/${id}`, { notes: 'Updated', items: [{ description: 'One', quantity: 1, unit_price: 9.99 }] });
    t.equal(patched.status, 200);
    t.match(patched.body.data.attributes, { notes: 'Updated', subtotal: '9.99', total: '9.99', customer_name: 'Ada Lovelace' });
    assertError(t, await e.api.request('PATCH', `/v1/invoices/${id}`, { items: [] }), 422);
    const partial = await e.api.request('PATCH', `/v1/invoices/${id}`, { items: [{ description: 'x', quantity: 1 }] });
    assertError(t, partial, 422);
    t.ok(partial.body.errors[0].meta.errors['items.0.unit_price']);
  },
);

t.test(
  'Overdue from 00:00 UTC on the day after due_date: the clock turns a sent, unpaid invoice into overdue (invoice.overdue); an overdue invoice can be paid',
  async (t) => {
    const { e, events } = await setup(t);
    const { id } = await create(e, { due_date: '2027-02-03' });
    const draft = await create(e, { due_date: '2027-02-03' });
    await e.api.post(`/v1/invoices/${id}/send`);
    await e.api.post('/_payemu/clock/advance', { to: '2027-02-03T23:59:59Z' });
    t.equal((await e.api.get(`/v1/invoices/${id}`)).body.data.attributes.status, 'sent', 'the due date itself is not overdue');
    const res = await e.api.post('/_payemu/clock/advance', { to: '2027-02-04T00:00:00Z' });
    t.equal(res.body.ran['invoice.overdue'], 1);
    t.equal((await e.api.get(`/v1/invoices/${id}`)).body.data.attributes.status, 'overdue');
    t.equal((await e.api.get(`/v1/invoices/${draft.id}`)).body.data.attributes.status, 'draft', 'a draft never turns overdue');
    t.match(events.at(-1), { name: 'invoice.overdue', data: { invoice_id: id, status: 'overdue' } });
    t.equal((await e.api.post(`/_payemu/invoices/${id}/pay`, { card_number: '4242424242424242' })).body.invoice.status, 'paid');
  },
);

t.test('List: filters status, customer_email; paginated', async (t) => {
  const { e } = await setup(t);
  const a = await create(e, { customer_email: 'a@example.com' });
  await create(e, { customer_email: 'b@example.com' });
  await e.api.post(`/v1/invoices/${a.id}/send`);
  const ids = async (query: string) => (await e.api.get(`/v1/invoices?${query}`)).body.data.map((x: { id: string }) => x.id);
  t.same(await ids('filter[status]=sent'), [a.id]);
  t.same(await ids('filter[customer_email]=a@example.com'), [a.id]);
  const page = await e.api.get('/v1/invoices?page[size]=1&page[number]=2');
  t.same(page.body.meta, { current_page: 2, last_page: 2, per_page: 1, total: 2 });
  assertError(t, await e.api.get('/v1/invoices/inv_nope'), 404);
});
