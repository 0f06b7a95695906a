import t, { type Test } from 'tap';
import { assertError, emulator, pay } from '../helpers/emulator.js';

// The API's Limits table, row by row: each limit is accepted at its edge and refused (a 422
// naming the field) one step past it. Each test is titled with the row it checks. One emulator
// serves the file.

const e = await emulator(t, { clockStart: '2027-01-10T09:00:00Z', freezeClock: true });
const pm = (await pay(e, { amount: 1, save_payment_method: true })).completed.body.payment.payment_method as string;

/** `body` at the edge is accepted (2xx); `over` is a 422 naming `field`. */
async function edge(t: Test, method: string, path: string, body: Record<string, unknown>, over: Record<string, unknown>, field: string) {
  const ok = await e.api.request(method, path, body);
  t.ok(ok.status < 300, `at the edge: ${ok.status} ${ok.text.slice(0, 200)}`);
  const refused = await e.api.request(method, path, over);
  assertError(t, refused, 422);
  t.ok(refused.body.errors[0].meta?.errors?.[field], `past it: names ${field}`);
}

const invoice = (over: Record<string, unknown> = {}) => ({
  customer_name: 'Ada',
  customer_email: 'ada@example.com',
  currency: 'USD',
  due_date: '2027-01-20',
  items: [{ description: 'Work', quantity: 1, unit_price: 10 }],
  ...over,
});
const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

t.test('Session lifetime: 24 hours', async (t) => {
  const s = await e.api.post('/v1/sessions', { amount: 1 });
  t.equal(s.body.data.attributes.expires_at, '2027-01-11T09:00:00.000000Z');
});

t.test('Session amount: 0.01 to 999999.99', async (t) => {
  await edge(t, 'POST', '/v1/sessions', { amount: 999999.99 }, { amount: 1_000_000 }, 'amount');
  await edge(t, 'POST', '/v1/sessions', { amount: 0.01 }, { amount: 0 }, 'amount');
});

t.test('Page size: max 100 per page', async (t) => {
  t.equal((await e.api.get('/v1/payments?page[size]=100')).status, 200);
  assertError(t, await e.api.get('/v1/payments?page[size]=101'), 422);
});

t.test('Payment link amount: 0.01 to 999999.99', async (t) => {
  await edge(t, 'POST', '/v1/payment-links', { title: 'x', amount: 999999.99 }, { title: 'x', amount: 1_000_000 }, 'amount');
  await edge(t, 'POST', '/v1/payment-links', { title: 'x', amount: 0.01 }, { title: 'x', amount: 0 }, 'amount');
});

t.test('Payment link metadata: max 50 keys', async (t) => {
  await edge(t, 'POST', '/v1/payment-links', { title: 'x', amount: 1, metadata: keys(50) }, { title: 'x', amount: 1, metadata: keys(51) }, 'metadata');
});

t.test('Payment link products: 1 to 50 entries, quantity 1 to 1000', async (t) => {
  await edge(
    t,
    'POST',
    '/v1/payment-links',
    { title: 'x', products: Array.from({ length: 50 }, () => ({ id: 3 })) },
    { title: 'x', products: Array.from({ length: 51 }, () => ({ id: 3 })) },
    'products',
  );
  assertError(t, await e.api.post('/v1/payment-links', { title: 'x', products: [] }), 422);
  await edge(
    t,
    'POST',
    '/v1/payment-links',
    { title: 'x', products: [{ id: 3, quantity: 1000 }] },
    { title: 'x', products: [{ id: 3, quantity: 1001 }] },
    'products.0.quantity',
  );
  assertError(t, await e.api.post('/v1/payment-links', { title: 'x', products: [{ id: 3, quantity: 0 }] }), 422);
});

t.test('Payment link URLs: max 2048 characters', async (t) => {
  const url = (n: number) => `https://x.example/${'a'.repeat(n - 'https://x.example/'.length)}`;
  await edge(
    t,
    'POST',
    '/v1/payment-links',
    { title: 'x', amount: 1, success_url: url(2048) },
    { title: 'x', amount: 1, success_url: url(2049) },
    'success_url',
  );
  await edge(t, 'POST', '/v1/payment-links', { title: 'x', amount: 1, cancel_url: url(2048) }, { title: 'x', amount: 1, cancel_url: url(2049) }, 'cancel_url');
});

t.test('Payment link title / description: 255 / 5000 characters', async (t) => {
  await edge(t, 'POST', '/v1/payment-links', { title: 't'.repeat(255), amount: 1 }, { title: 't'.repeat(256), amount: 1 }, 'title');
  await edge(
    t,
    'POST',
    '/v1/payment-links',
    { title: 'x', description: 'd'.repeat(5000), amount: 1 },
    { title: 'x', description: 'd'.repeat(5001), amount: 1 },
    'description',
  );
});

t.test('Recurring interval_count: 1 to 365', async (t) => {
  const body = (n: number) => ({ payment_method: pm, amount: 1, frequency: 'daily', start_date: '2027-02-01', interval_count: n });
  await edge(t, 'POST', '/v1/recurring-payments', body(365), body(366), 'interval_count');
  await edge(t, 'POST', '/v1/recurring-payments', body(1), body(0), 'interval_count');
  await edge(
    t,
    'POST',
    '/v1/payment-links',
    { title: 'x', amount: 1, recurring: { frequency: 'daily', interval_count: 365 } },
    { title: 'x', amount: 1, recurring: { frequency: 'daily', interval_count: 366 } },
    'recurring.interval_count',
  );
});

t.test('Invoice field lengths: name and email 255; address 1000; notes and terms 2000; item description 500', async (t) => {
  const email = (n: number) => `${'a'.repeat(n - '@example.com'.length)}@example.com`;
  await edge(t, 'POST', '/v1/invoices', invoice({ customer_name: 'n'.repeat(255) }), invoice({ customer_name: 'n'.repeat(256) }), 'customer_name');
  const longEmail = await e.api.post('/v1/invoices', invoice({ customer_email: email(256) }));
  assertError(t, longEmail, 422);
  t.ok(longEmail.body.errors[0].meta.errors.customer_email, 'email over 255 is refused');
  await edge(t, 'POST', '/v1/invoices', invoice({ customer_address: 'a'.repeat(1000) }), invoice({ customer_address: 'a'.repeat(1001) }), 'customer_address');
  await edge(t, 'POST', '/v1/invoices', invoice({ notes: 'n'.repeat(2000) }), invoice({ notes: 'n'.repeat(2001) }), 'notes');
  await edge(t, 'POST', '/v1/invoices', invoice({ terms: 't'.repeat(2000) }), invoice({ terms: 't'.repeat(2001) }), 'terms');
  await edge(
    t,
    'POST',
    '/v1/invoices',
    invoice({ items: [{ description: 'd'.repeat(500), quantity: 1, unit_price: 1 }] }),
    invoice({ items: [{ description: 'd'.repeat(501), quantity: 1, unit_price: 1 }] }),
    'items.0.description',
  );
});

t.test('Invoice tax_rate: 0 to 100', async (t) => {
  await edge(t, 'POST', '/v1/invoices', invoice({ tax_rate: 100 }), invoice({ tax_rate: 100.01 }), 'tax_rate');
  await edge(t, 'POST', '/v1/invoices', invoice({ tax_rate: 0 }), invoice({ tax_rate: -1 }), 'tax_rate');
});

t.test('Invoice item: quantity min 1; unit price min 0.01', async (t) => {
  await edge(
    t,
    'POST',
    '/v1/invoices',
    invoice({ items: [{ description: 'x', quantity: 1, unit_price: 1 }] }),
    invoice({ items: [{ description: 'x', quantity: 0, unit_price: 1 }] }),
    'items.0.quantity',
  );
  await edge(
    t,
    'POST',
    '/v1/invoices',
    invoice({ items: [{ description: 'x', quantity: 1, unit_price: 0.01 }] }),
    invoice({ items: [{ description: 'x', quantity: 1, unit_price: 0 }] }),
    'items.0.unit_price',
  );
  assertError(t, await e.api.post('/v1/invoices', invoice({ items: [] })), 422);
});
