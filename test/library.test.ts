// The library, as a user's own test suite would use it (README "As a library").
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { startEmulator, verifyWebhook, type PaymentEventData, type WebhookEvent } from '../src/index.js';

t.test('start payemu in a test, pay a checkout, receive and verify the webhook', async (t) => {
  // A receiver, as the user's app would have.
  const received: WebhookEvent[] = [];
  const receiver = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      received.push(verifyWebhook<WebhookEvent>(raw, req.headers['x-webhook-signature'] as string, payemu.webhookSecret));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  t.teardown(() => receiver.close());

  const payemu = await startEmulator({ webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, webhookBackoff: '0,0,0' });
  t.teardown(() => payemu.close());

  const headers = { Authorization: `Bearer ${payemu.keys.test}`, 'Content-Type': 'application/json' };
  const session = (await (
    await fetch(`${payemu.url}/v1/sessions`, { method: 'POST', headers, body: JSON.stringify({ amount: 42, reference: 'order-1' }) })
  ).json()) as { data: { id: string } };
  await fetch(`${payemu.url}/_payemu/sessions/${session.data.id}/complete`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ card_number: '4242 4242 4242 4242' }),
  });
  await payemu.idle(); // the webhook has been delivered, and payemu has stored the attempt

  t.equal(received[0]!.event, 'payment.completed');
  t.match(received[0]!.data as PaymentEventData, { reference: 'order-1', amount: 42, status: 'PAID' });
  t.equal(payemu.events.list({ reference: 'order-1' })[0]!.delivery_status, 'delivered');
});

t.test('trigger events and move time from the library', async (t) => {
  const payemu = await startEmulator({ clockStart: '2030-01-01T00:00:00Z', freezeClock: true });
  t.teardown(() => payemu.close());
  const seen: string[] = [];
  payemu.events.on((event) => seen.push(event.name));

  const result = await payemu.trigger('invoice.overdue');
  t.equal(result.event, 'invoice.overdue');
  t.equal(payemu.events.get(result.event_id!)!.event, 'invoice.overdue');
  t.same(seen, ['invoice.created', 'invoice.sent', 'invoice.overdue']);
  t.equal(payemu.clock.now(), '2030-01-02T00:00:00.000000Z', 'the trigger moved the clock a day');

  const advanced = await payemu.clock.advance('30d');
  t.equal(advanced.now, '2030-02-01T00:00:00.000000Z');
  const globex = await payemu.trigger('payment.completed', { source: 'globex', data: { amount: 9 } });
  t.equal(globex.source, 'globex');
  t.equal(payemu.events.list({ source: 'globex' }).length, 1);
});

t.test(
  'the library refuses what the HTTP operation refuses: a data key a trigger never reads (422), a resend while an attempt is in progress (409)',
  async (t) => {
    let hold: http.ServerResponse | undefined;
    let held!: () => void;
    const arrived = new Promise<void>((resolve) => (held = resolve));
    const hook = http.createServer((_req, res) => {
      hold = res;
      held();
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise<void>((resolve) => hook.close(() => resolve())));
    const payemu = await startEmulator({ webhookUrl: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`, freezeClock: true });
    t.teardown(() => payemu.close());

    await t.rejects(payemu.trigger('payment.completed', { data: { colour: 'red' } }), {
      status: 422,
      message: /payment\.completed takes no data key "colour"/,
    });
    t.same(payemu.events.list(), [], 'nothing happened');

    const triggered = await payemu.trigger('payment.completed');
    const event_id = triggered.event_id!;
    await arrived; // its first attempt is in progress: the receiver holds it
    t.throws(() => payemu.events.resend(event_id), { status: 409, message: /in progress/ });
    hold!.end('ok');
    await payemu.idle();
    t.equal(payemu.events.resend(event_id)?.id, event_id, 'resent once the attempt has finished');
    t.equal(payemu.events.resend('no-such-event'), undefined, 'an unknown event is undefined');
  },
);
