import t, { type Test } from 'tap';
import { assertError, emulator, type TestEmulator } from './helpers/emulator.js';

const base = {
  customer_name: 'Ada Lovelace',
  customer_email: 'ada@example.com',
  currency: 'USD',
  due_date: '2027-02-10',
  items: [{ description: 'Consulting', quantity: 3, unit_price: 0.33 }],
};

async function setup(t: Test) {
  const e = await emulator(t, { clockStart: '2027-02-01T10:00:00Z', freezeClock: true });
  const events: { name: string; data: Record<string, any> }[] = [];
  e.bus.on('domain', (ev) => events.push({ name: ev.name, data: ev.data }));
  return { e, events };
}

const create = (e: TestEmulator, body: Record<string, unknown> = {}) => e.api.post('/v1/invoices', { ...base, ...body });

t.test('create: a draft with its totals, number, payment_url and invoice.created', async (t) => {
  const { e, events } = await setup(t);
  const res = await create(e, { customer_address: '1 Analytical Way', notes: 'Thanks', terms: 'Net 10', metadata: { po: 7 } });
  t.equal(res.status, 201);
  const invoice = res.body.data;
  t.match(invoice.id, /^inv_[0-9A-Za-z]{24}$/);
  t.equal(invoice.type, 'invoices');
  t.match(invoice.attributes, {
    number: 'INV-000001',
    status: 'draft',
    customer_name: 'Ada Lovelace',
    customer_email: 'ada@example.com',
    customer_address: '1 Analytical Way',
    currency: 'USD',
    due_date: '2027-02-10',
    notes: 'Thanks',
    terms: 'Net 10',
    metadata: { po: 7 },
    items: [{ description: 'Consulting', quantity: 3, unit_price: '0.33', amount: '0.99' }],
    subtotal: '0.99',
    discount: '0.00',
    tax_rate: 0,
    tax_amount: '0.00',
    total: '0.99',
    sent_at: null,
    paid_at: null,
  });
  t.equal(invoice.attributes.payment_url, `${e.url}/invoices/${invoice.id}`);
  t.same(
    events.map((x) => x.name),
    ['invoice.created'],
  );
  t.match(events[0]!.data, { invoice_id: invoice.id, number: 'INV-000001', status: 'draft', total: 0.99 });
  t.equal((await create(e)).body.data.attributes.number, 'INV-000002');
  t.equal((await e.globex.post('/v1/invoices', { ...base, currency: 'EUR' })).body.data.attributes.number, 'INV-000001', 'numbers per Source');
});

t.test('totals: 3 x 0.33 at 7.25 %, discount before tax, explicit tax_rate wins over apply_tax', async (t) => {
  const { e } = await setup(t);
  t.match((await create(e, { apply_tax: true })).body.data.attributes, { subtotal: '0.99', tax_rate: 7.25, tax_amount: '0.07', total: '1.06' });
  t.match((await create(e, { apply_tax: true, tax_rate: 10 })).body.data.attributes, { tax_rate: 10, tax_amount: '0.10', total: '1.09' });
  t.match(
    (
      await create(e, {
        items: [
          { description: 'A', quantity: 2, unit_price: 50 },
          { description: 'B', quantity: 1, unit_price: 0.5 },
        ],
        discount: 10.5,
        tax_rate: 20,
      })
    ).body.data.attributes,
    { subtotal: '100.50', discount: '10.50', tax_amount: '18.00', total: '108.00' },
  );
  assertError(t, await create(e, { discount: 1 }), 422, /discount/);
});

t.test('every field rule is a 422 naming the field', async (t) => {
  const { e } = await setup(t);
  const cases: [Record<string, unknown>, string][] = [
    [{ customer_name: undefined }, 'customer_name'],
    [{ customer_name: 'n'.repeat(256) }, 'customer_name'],
    [{ customer_email: 'x' }, 'customer_email'],
    [{ customer_address: 'a'.repeat(1001) }, 'customer_address'],
    [{ currency: 'ZZZ' }, 'currency'],
    [{ currency: undefined }, 'currency'],
    [{ due_date: '2027-01-31' }, 'due_date'],
    [{ due_date: 'soon' }, 'due_date'],
    [{ notes: 'n'.repeat(2001) }, 'notes'],
    [{ terms: 't'.repeat(2001) }, 'terms'],
    [{ discount: -1 }, 'discount'],
    [{ tax_rate: 101 }, 'tax_rate'],
    [{ apply_tax: 'yes' }, 'apply_tax'],
    [{ items: [] }, 'items'],
    [{ items: [{ quantity: 1, unit_price: 1 }] }, 'items.0.description'],
    [{ items: [{ description: 'd'.repeat(501), quantity: 1, unit_price: 1 }] }, 'items.0.description'],
    [{ items: [{ description: 'x', quantity: 0, unit_price: 1 }] }, 'items.0.quantity'],
    [{ items: [{ description: 'x', quantity: 1.5, unit_price: 1 }] }, 'items.0.quantity'],
    [{ items: [{ description: 'x', quantity: 1, unit_price: 0 }] }, 'items.0.unit_price'],
  ];
  for (const [body, field] of cases) {
    const res = await create(e, body);
    t.equal(res.status, 422, JSON.stringify(body).slice(0, 60));
    t.ok(res.body.errors[0].meta.errors[field], `names ${field}`);
  }
  t.equal((await e.api.get('/v1/invoices')).body.meta.total, 0);
});

t.test('PATCH a draft; a sent invoice is a 422; apply_tax is create-only', async (t) => {
  const { e } = await setup(t);
  const id = (await create(e)).body.data.id;
  const res = await e.api.request('PATCH', `/v1/invoices/${id}`, { items: [{ description: 'More', quantity: 2, unit_price: 10 }], tax_rate: 5, notes: null });
  t.equal(res.status, 200);
  t.match(res.body.data.attributes, { subtotal: '20.00', tax_amount: '1.00', total: '21.00', notes: null });
  assertError(t, await e.api.request('PATCH', `/v1/invoices/${id}`, { apply_tax: true }), 422, /only be set when the invoice is created/);
  assertError(t, await e.api.request('PATCH', `/v1/invoices/${id}`, { items: [] }), 422);
  assertError(t, await e.api.request('PATCH', `/v1/invoices/${id}`, { items: [{ description: 'x' }] }), 422);
  await e.api.post(`/v1/invoices/${id}/send`);
  assertError(t, await e.api.request('PATCH', `/v1/invoices/${id}`, { notes: 'late' }), 422, /^Only draft invoices can be modified$/);
  assertError(t, await e.api.request('PATCH', '/v1/invoices/inv_nope', {}), 404);
});

t.test('send, pay, overdue: transitions, events and their order', async (t) => {
  const { e, events } = await setup(t);
  const id = (await create(e, { apply_tax: true })).body.data.id;
  assertError(t, await e.api.post(`/_payemu/invoices/${id}/pay`, { card_number: '4242424242424242' }), 422, /draft/);
  const sent = await e.api.post(`/v1/invoices/${id}/send`);
  t.match(sent.body.data.attributes, { status: 'sent', sent_at: '2027-02-01T10:00:00.000000Z' });
  assertError(t, await e.api.post(`/v1/invoices/${id}/send`), 422, /Only draft invoices can be sent/);

  const declined = await e.api.post(`/_payemu/invoices/${id}/pay`, { card_number: '4000000000000002' });
  t.equal(declined.status, 200);
  t.match(declined.body, { invoice: { status: 'sent' }, payment: { status: 'FAILED', reference: id } });

  const paid = await e.api.post(`/_payemu/invoices/${id}/pay`, { card_number: '4242424242424242' });
  t.match(paid.body, { invoice: { status: 'paid', paid_at: '2027-02-01T10:00:00.000000Z' }, payment: { status: 'PAID', amount: '1.06', reference: id } });
  t.same(
    events.map((x) => x.name),
    ['invoice.created', 'invoice.sent', 'payment.failed', 'payment.completed', 'invoice.paid'],
  );
  t.match(events.at(-1)!.data, { invoice_id: id, status: 'paid', total: 1.06, payment_reference: id });
  assertError(t, await e.api.post(`/_payemu/invoices/${id}/pay`, { card_number: '4242424242424242' }), 409);
  t.equal((await e.api.post(`/v1/payments/${id}/refunds`, { amount: 1.06 })).status, 201, 'an invoice payment is a payment');
});

t.test('the clock turns a sent, unpaid invoice overdue at 00:00 UTC the day after due_date', async (t) => {
  const { e, events } = await setup(t);
  const id = (await create(e, { due_date: '2027-02-03' })).body.data.id;
  const draft = (await create(e, { due_date: '2027-02-03' })).body.data.id;
  await e.api.post(`/v1/invoices/${id}/send`);
  const before = await e.api.post('/_payemu/clock/advance', { to: '2027-02-03T23:59:59Z' });
  t.notOk(before.body.ran['invoice.overdue']);
  const after = await e.api.post('/_payemu/clock/advance', { by: '1s' });
  t.equal(after.body.ran['invoice.overdue'], 1);
  t.equal(after.body.items[0].at, '2027-02-04T00:00:00.000000Z');
  t.equal((await e.api.get(`/v1/invoices/${id}`)).body.data.attributes.status, 'overdue');
  t.equal((await e.api.get(`/v1/invoices/${draft}`)).body.data.attributes.status, 'draft', 'a draft never turns overdue');
  t.equal(events.at(-1)!.name, 'invoice.overdue');
  const paid = await e.api.post(`/_payemu/invoices/${id}/pay`, { card_number: '4242424242424242' });
  t.equal(paid.body.invoice.status, 'paid', 'an overdue invoice can be paid');
});

t.test('list: filters, pagination, isolation', async (t) => {
  const { e } = await setup(t);
  const a = (await create(e)).body.data.id;
  const b = (await create(e, { customer_email: 'bob@example.com' })).body.data.id;
  await e.api.post(`/v1/invoices/${a}/send`);
  const all = await e.api.get('/v1/invoices');
  t.same(
    all.body.data.map((i: any) => i.id),
    [b, a],
  );
  t.same(all.body.meta, { current_page: 1, last_page: 1, per_page: 15, total: 2 });
  t.same(
    (await e.api.get('/v1/invoices?filter[status]=sent')).body.data.map((i: any) => i.id),
    [a],
  );
  t.same(
    (await e.api.get('/v1/invoices?filter[customer_email]=BOB@example.com')).body.data.map((i: any) => i.id),
    [b],
  );
  t.same(
    (await e.api.get('/v1/invoices?page[size]=1&page[number]=2')).body.data.map((i: any) => i.id),
    [a],
  );
  assertError(t, await e.api.get('/v1/invoices?filter[status]=void'), 422);
  assertError(t, await e.globex.get(`/v1/invoices/${a}`), 404);
  t.equal((await e.live.get('/v1/invoices')).body.meta.total, 0);
});
