import t from 'tap';
import { assertError, emulator, pay } from '../helpers/emulator.js';

// payemu's status codes and formats of answers: `meta.errors` keys are dot paths; unknown body
// fields are ignored, create-only fields on update are a 422; 201 for a POST that creates, 200
// for actions and reads; 400 for malformed JSON, 415 for a body that is not JSON; every amount
// a two-decimal string (sessions and webhooks excepted), rates numbers. (Lists, rate limit and
// idempotency have their own files.) Each test is titled with the sentence it checks. One
// emulator serves the file.

const e = await emulator(t, { clockStart: '2027-01-10T09:00:00Z', freezeClock: true });
const pm = (await pay(e, { amount: 50, reference: 'ans-paid', save_payment_method: true })).completed.body.payment.payment_method as string;
await pay(e, { amount: 50, reference: 'ans-held', capture_method: 'manual' });
await pay(e, { amount: 50, reference: 'ans-held-2', capture_method: 'manual' });
const invoiceBody = {
  customer_name: 'Ada',
  customer_email: 'ada@example.com',
  currency: 'USD',
  due_date: '2027-01-20',
  items: [{ description: 'Work', quantity: 2, unit_price: 10.5 }],
};

t.test('Validation: meta.errors keys are dot paths (amount, tax.lines.0.name, items.1.unit_price)', async (t) => {
  const session = await e.api.post('/v1/sessions', { amount: 1, tax: { amount: 1, lines: [{ amount: 1 }] } });
  t.ok(session.body.errors[0].meta.errors['tax.lines.0.name']);
  const invoice = await e.api.post('/v1/invoices', {
    ...invoiceBody,
    items: [
      { description: 'a', quantity: 1, unit_price: 1 },
      { description: 'b', quantity: 1 },
    ],
  });
  t.ok(invoice.body.errors[0].meta.errors['items.1.unit_price']);
});

t.test(
  'Unknown body fields are ignored; a create-only field sent on update (a payment link currency or products, an invoice apply_tax) is a 422',
  async (t) => {
    t.equal((await e.api.post('/v1/sessions', { amount: 1, colour: 'blue' })).status, 201);
    const link = await e.api.post('/v1/payment-links', { title: 'x', amount: 1 });
    const id = link.body.data.id;
    for (const body of [{ currency: 'EUR' }, { products: [{ id: 1 }] }]) {
      const res = await e.api.request('PATCH', `/v1/payment-links/${id}`, body);
      assertError(t, res, 422);
      t.ok(res.body.errors[0].meta.errors[Object.keys(body)[0]!]);
    }
    const invoice = await e.api.post('/v1/invoices', invoiceBody);
    const res = await e.api.request('PATCH', `/v1/invoices/${invoice.body.data.id}`, { apply_tax: true });
    assertError(t, res, 422);
    t.ok(res.body.errors[0].meta.errors.apply_tax);
  },
);

t.test(
  'A POST that creates a resource answers 201 (sessions, refunds, charges, recurring payments, payment-method sessions, invoices, payment links)',
  async (t) => {
    const creates: [string, Record<string, unknown>][] = [
      ['/v1/sessions', { amount: 1 }],
      ['/v1/payments/ans-paid/refunds', { amount: 1 }],
      ['/v1/charges', { payment_method: pm, amount: 1 }],
      ['/v1/recurring-payments', { payment_method: pm, amount: 1, frequency: 'monthly', reference: 'ans-sub', start_date: '2027-02-01' }],
      ['/v1/recurring-payments/ans-sub/payment-method-session', {}],
      ['/v1/invoices', invoiceBody],
      ['/v1/payment-links', { title: 'x', amount: 1 }],
    ];
    for (const [path, body] of creates) t.equal((await e.api.post(path, body)).status, 201, path);
  },
);

t.test('Actions and reads answer 200 (capture, void, pause, resume, send, DELETE, calculate, GET)', async (t) => {
  const invoice = await e.api.post('/v1/invoices', invoiceBody);
  await e.api.post('/v1/recurring-payments', { payment_method: pm, amount: 1, frequency: 'monthly', reference: 'ans-sub-2', start_date: '2027-02-01' });
  const actions: [string, string, Record<string, unknown> | undefined][] = [
    ['POST', '/v1/payments/ans-held/capture', {}],
    ['POST', '/v1/payments/ans-held-2/void', undefined],
    ['POST', '/v1/recurring-payments/ans-sub-2/pause', undefined],
    ['POST', '/v1/recurring-payments/ans-sub-2/resume', undefined],
    ['POST', `/v1/invoices/${invoice.body.data.id}/send`, undefined],
    ['DELETE', '/v1/recurring-payments/ans-sub-2', undefined],
    ['POST', '/v1/tax/calculate', { amount: 10 }],
    ['GET', '/v1/payments/ans-paid', undefined],
    ['GET', '/v1/me', undefined],
    ['PATCH', `/v1/payment-links/1`, { title: 'y' }],
  ];
  for (const [method, path, body] of actions) t.equal((await e.api.request(method, path, body)).status, 200, `${method} ${path}`);
});

t.test('Malformed JSON is a 400; a body that is not JSON (Content-Type other than application/json on a POST/PATCH with a body) is a 415', async (t) => {
  assertError(t, await e.api.post('/v1/payment-links', '{"title": '), 400);
  assertError(t, await e.api.request('PATCH', '/v1/payment-links/1', '{', {}), 400);
  assertError(t, await e.api.post('/v1/payment-links', 'title=x', { 'Content-Type': 'text/plain' }), 415);
  assertError(t, await e.api.request('PATCH', '/v1/payment-links/1', '<title/>', { 'Content-Type': 'application/xml' }), 415);
});

t.test(
  'Every amount in a response is a two-decimal string, invoices and tax calculations included; session responses and webhook payloads are numbers; rates are numbers',
  async (t) => {
    const invoice = (await e.api.post('/v1/invoices', { ...invoiceBody, tax_rate: 7.25 })).body.data.attributes;
    t.match(invoice, { subtotal: '21.00', discount: '0.00', tax_amount: '1.52', total: '22.52', tax_rate: 7.25 });
    t.match(invoice.items[0], { unit_price: '10.50', amount: '21.00' });
    const calc = (await e.api.post('/v1/tax/calculate', { amount: 10 })).body.data.attributes;
    t.match(calc, { subtotal: '10.00', tax_amount: '0.73', total: '10.73', rate: 7.25 });
    t.equal((await e.api.get('/v1/recurring-payments/ans-sub')).body.data.attributes.amount, '1.00');
    t.equal((await e.api.get('/v1/payment-links/1')).body.data.attributes.amount, '1.00');
    const session = await e.api.post('/v1/sessions', { amount: 12.5 });
    t.equal(session.body.data.attributes.amount, 12.5, 'a session amount is a number');
    t.equal((await e.api.get(`/v1/sessions/${session.body.data.id}`)).body.data.attributes.amount, 12.5, 'on retrieve too');
    const events = await e.api.get('/_payemu/events?reference=ans-paid');
    t.type(events.body.events.at(-1).payload.data.amount, 'number', 'webhook payloads carry numbers');
  },
);
