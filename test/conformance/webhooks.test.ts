import { createHmac } from 'node:crypto';
import t from 'tap';
import { EVENT_NAMES } from '../../src/catalogue.js';
import { emulator, pay, type TestEmulator } from '../helpers/emulator.js';
import { receiver } from '../helpers/receiver.js';

// The API's Events section (delivery, headers, signature, the payment.completed body, retries)
// and payemu's webhook contract (retries, wall-clock `t=`, payload of every event, which
// operation raises which events). Each test is titled with the sentence it checks. One emulator
// and one receiver serve the file; tests keep apart by reference.

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Answers held back by the receiver (references starting with `slow-`), released by the test. */
const held: (() => void)[] = [];
const r = await receiver(t, (req, res) => {
  // By the reference in the body: `refuse-` gets a 500, `big-` a 10 KiB body, `slow-` waits
  // until the test releases it; anything else a 200 `ok`.
  if (req.body.includes('"refuse-')) {
    res.statusCode = 500;
    res.end('not today');
  } else if (req.body.includes('"big-')) res.end('x'.repeat(10 * 1024));
  else if (req.body.includes('"slow-')) held.push(() => res.end('ok'));
  else res.end('ok');
});
const e: TestEmulator = await emulator(t, { webhookUrl: r.url, webhookBackoff: '0,0,0', clockStart: '2027-01-10T09:00:00Z', freezeClock: true });

/** The deliveries received so far whose body names `reference`. */
const deliveries = (reference: string) => r.received.filter((x) => JSON.parse(x.body).data.reference === reference);
const names = (reference: string) => deliveries(reference).map((x) => x.headers['x-webhook-event']);

/**
 * The hosted API's event table (its Events section), as the contract states it: a fact of the
 * contract, written here, not the catalogue restated. payemu may serve more events than these.
 */
const HOSTED_API_EVENTS = [
  'payment.completed',
  'payment.authorized',
  'payment.captured',
  'payment.failed',
  'payment.refunded',
  'payment.voided',
  'recurring.charged',
  'recurring.failed',
  'recurring.suspended',
  'recurring.cancelled',
  'recurring.paused',
  'recurring.resumed',
  'recurring.updated',
  'recurring.payment_method_updated',
  'invoice.created',
  'invoice.sent',
  'invoice.paid',
  'invoice.overdue',
];

t.test("Events: every event of the hosted API's table exists, in the table's order", async (t) => {
  t.same(
    EVENT_NAMES.filter((name) => HOSTED_API_EVENTS.includes(name)),
    HOSTED_API_EVENTS,
  );
});

t.test('Delivery: HTTP POST with Content-Type: application/json and the headers X-Webhook-Signature, X-Webhook-Event, X-Webhook-Event-Id (UUID)', async (t) => {
  await pay(e, { amount: 12, reference: 'hdr-1' });
  await e.idle();
  const [got] = deliveries('hdr-1');
  t.ok(got);
  t.equal(got!.headers['content-type'], 'application/json');
  t.equal(got!.headers['x-webhook-event'], 'payment.completed');
  t.match(got!.headers['x-webhook-event-id'], UUID4, 'event id: UUID v4');
  t.match(got!.headers['x-webhook-signature'], /^t=\d+,v1=[0-9a-f]{64}$/, 't=<unix_timestamp>,v1=<hex_signature>');
});

t.test("Signature: v1 is the hex HMAC-SHA256 of '<timestamp>.<raw_request_body>' keyed with the Source's whsec_ secret", async (t) => {
  await pay(e, { amount: 3, reference: 'sig-acme' });
  await pay(e, { amount: 3, reference: 'sig-globex' }, '4242424242424242', e.globex);
  await e.idle();
  for (const [reference, secret] of [
    ['sig-acme', 'whsec_payemu_acme'],
    ['sig-globex', 'whsec_payemu_globex'],
  ] as const) {
    const got = deliveries(reference)[0]!;
    const [, stamp, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(got.headers['x-webhook-signature']))!;
    t.equal(v1, createHmac('sha256', secret).update(`${stamp}.${got.body}`).digest('hex'), `${reference}: signed with its own Source's secret`);
  }
});

t.test('The t= in the signature is wall-clock Unix time, even when the virtual clock has been advanced', async (t) => {
  const clock = await e.api.get('/_payemu/clock');
  t.ok(Math.abs(Date.parse(clock.body.now) - Date.now()) > 24 * 3600_000, 'the virtual clock is far from the wall clock');
  await pay(e, { amount: 4, reference: 'wall-1' });
  await e.idle();
  const stamp = Number(/t=(\d+)/.exec(String(deliveries('wall-1')[0]!.headers['x-webhook-signature']))![1]);
  t.ok(Math.abs(stamp - Date.now() / 1000) < 60, 't= is within a minute of the wall clock');
});

t.test(
  'Body of payment.completed: event and data with payment_id (integer), reference, amount (number), currency, status PAID, card_last, card_brand, metadata',
  async (t) => {
    const { completed } = await pay(e, { amount: 25.5, reference: 'body-1', metadata: { order: 'A-1' } });
    await e.idle();
    t.same(JSON.parse(deliveries('body-1')[0]!.body), {
      event: 'payment.completed',
      data: {
        payment_id: completed.body.payment.id,
        reference: 'body-1',
        amount: 25.5,
        currency: 'USD',
        status: 'PAID',
        card_last: '4242',
        card_brand: 'visa',
        metadata: { order: 'A-1' },
      },
    });
  },
);

t.test('Payloads of every event are {event, data}; data carries the resource ids, reference, amounts (numbers), currency, status and metadata', async (t) => {
  // payment.*: a refund
  await pay(e, { amount: 20, reference: 'shape-pay', metadata: { k: 'v' } });
  await e.api.post('/v1/payments/shape-pay/refunds', { amount: 5 });
  // invoice.*: created, sent, paid
  const invoice = await e.api.post('/v1/invoices', {
    customer_name: 'Ada',
    customer_email: 'ada@example.com',
    currency: 'USD',
    due_date: '2027-01-20',
    metadata: { po: '7' },
    items: [{ description: 'Work', quantity: 1, unit_price: 10 }],
  });
  const id = invoice.body.data.id as string;
  await e.api.post(`/v1/invoices/${id}/send`);
  await e.api.post(`/_payemu/invoices/${id}/pay`, { card_number: '4242424242424242' });
  await e.idle();
  const bodies = r.received.map((x) => JSON.parse(x.body) as { event: string; data: Record<string, unknown> });
  for (const body of bodies) {
    t.same(Object.keys(body), ['event', 'data'], `${body.event}: {event, data}`);
    const data = body.data;
    t.type(data.reference, 'string', `${body.event}: data.reference`);
    t.type(data.currency, 'string', `${body.event}: data.currency`);
    t.type(data.status, 'string', `${body.event}: data.status`);
    t.type(data.metadata, 'object', `${body.event}: data.metadata`);
    for (const key of ['amount', 'total', 'subtotal', 'refund_amount', 'total_refunded', 'refundable_amount', 'tax_amount', 'discount'])
      if (key in data) t.type(data[key], 'number', `${body.event}: ${key} is a number`);
  }
  const refunded = bodies.find((b) => b.event === 'payment.refunded' && b.data.reference === 'shape-pay')!;
  t.match(refunded.data, {
    payment_id: Number,
    amount: 20,
    status: 'PARTIALLY_REFUNDED',
    refund_id: /^re_/,
    refund_amount: 5,
    total_refunded: 5,
    refundable_amount: 15,
    metadata: { k: 'v' },
  });
  const invoiceEvents = bodies.filter((b) => b.event.startsWith('invoice.') && b.data.invoice_id === id);
  t.same(
    invoiceEvents.map((b) => b.event),
    ['invoice.created', 'invoice.sent', 'invoice.paid'],
  );
  for (const b of invoiceEvents) t.equal(b.data.reference, id, `${b.event}: reference is the invoice id (the reference its payment gets)`);
  const events = await e.api.get(`/_payemu/events?reference=${id}`);
  t.same(
    events.body.events.map((x: { event: string }) => x.event),
    ['invoice.paid', 'payment.completed', 'invoice.sent', 'invoice.created'],
    "an invoice's events are found by its reference, with its payment's",
  );
});

t.test('Retry: a response other than 2xx is retried 3 times; every attempt is logged with status, response body and timestamp', async (t) => {
  await pay(e, { amount: 7, reference: 'refuse-1' });
  await e.idle();
  t.equal(deliveries('refuse-1').length, 4, 'one attempt and 3 retries');
  const ids = new Set(deliveries('refuse-1').map((x) => x.headers['x-webhook-event-id']));
  t.equal(ids.size, 1, 'every attempt carries the same event id');
  const listed = await e.api.get('/_payemu/events?reference=refuse-1');
  const [event] = listed.body.events;
  t.equal(event.delivery_status, 'failed');
  t.equal(event.attempts.length, 4);
  for (const attempt of event.attempts) t.match(attempt, { status: 500, response_body: 'not today', at: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/ });
});

t.test("Each delivery is stored against the payment, and the recorded event_id correlates it with the receiver's logs", async (t) => {
  await pay(e, { amount: 8, reference: 'corr-1' });
  await e.idle();
  const listed = await e.api.get('/_payemu/events?reference=corr-1');
  t.equal(listed.body.events.length, 1);
  const [event] = listed.body.events;
  t.equal(event.id, deliveries('corr-1')[0]!.headers['x-webhook-event-id'], 'the id payemu stored is the X-Webhook-Event-Id the receiver got');
  t.equal(event.delivery_status, 'delivered');
  t.match(event.attempts, [{ status: 200, response_body: 'ok' }]);
});

t.test('Events per operation, in this order: capture payment.captured then payment.completed; void payment.voided; decline payment.failed', async (t) => {
  await pay(e, { amount: 10, reference: 'order-cap', capture_method: 'manual' });
  await e.api.post('/v1/payments/order-cap/capture', {});
  await pay(e, { amount: 10, reference: 'order-void', capture_method: 'manual' });
  await e.api.post('/v1/payments/order-void/void');
  await pay(e, { amount: 10, reference: 'order-fail' }, '4000000000000002');
  await e.idle();
  t.same(names('order-cap'), ['payment.authorized', 'payment.captured', 'payment.completed']);
  t.same(names('order-void'), ['payment.authorized', 'payment.voided']);
  t.same(names('order-fail'), ['payment.failed']);
});

t.test('Expiry of sessions and authorizations sends no webhook', async (t) => {
  await e.api.post('/v1/sessions', { amount: 5, reference: 'exp-session' });
  await pay(e, { amount: 5, reference: 'exp-hold', capture_method: 'manual' });
  await e.api.post('/_payemu/clock/advance', { by: '8d' });
  await e.idle();
  t.equal((await e.api.get('/v1/payments/exp-hold')).body.data.attributes.status, 'EXPIRED', 'the authorization expired');
  t.same(names('exp-hold'), ['payment.authorized'], 'no event for the expiry');
  t.same(names('exp-session'), []);
});

t.test('GET /v1/me reports webhook_configured once the Source has a webhook URL', async (t) => {
  t.equal((await e.api.get('/v1/me')).body.data.attributes.webhook_configured, true);
});

t.test(
  'Private and reserved addresses are blocked by the real service; payemu allows loopback by default and enforces the rule with --strict-webhook-urls',
  async (t) => {
    const strict = await emulator(t, { webhookUrl: r.url, webhookBackoff: '0,0,0', strictWebhookUrls: true });
    await pay(strict, { amount: 1, reference: 'strict-1' });
    await strict.idle();
    t.equal(deliveries('strict-1').length, 0, 'nothing reached the loopback receiver');
    const [event] = (await strict.api.get('/_payemu/events?reference=strict-1')).body.events;
    t.match(event.attempts[0].error, /blocked by --strict-webhook-urls/);
    t.ok(deliveries('hdr-1').length > 0, 'by default, loopback receives');
  },
);

t.test('Every attempt is stored (status, response body up to 4 KiB, duration, timestamp, error)', async (t) => {
  await pay(e, { amount: 1, reference: 'big-1' });
  await e.idle();
  const [event] = (await e.api.get('/_payemu/events?reference=big-1')).body.events;
  const [attempt] = event.attempts;
  t.equal(attempt.status, 200);
  t.equal(attempt.response_body.length, 4096, 'the body cut at 4 KiB');
  t.type(attempt.duration_ms, 'number');
  t.match(attempt.at, /\.\d{6}Z$/);
  t.equal(attempt.error, null);
});

t.test('First attempts start in event order per Source, but never wait for each other: a slow receiver delays nothing else', async (t) => {
  const slow = r.next();
  await pay(e, { amount: 1, reference: 'slow-1' });
  await slow;
  const next = r.next();
  await pay(e, { amount: 1, reference: 'fast-after-slow' });
  const got = await next;
  t.equal(JSON.parse(got.body).data.reference, 'fast-after-slow', 'delivered while the first answer is still held');
  for (const release of held.splice(0)) release();
  await e.idle();
  t.equal((await e.api.get('/_payemu/events?reference=slow-1')).body.events[0].delivery_status, 'delivered');
});
