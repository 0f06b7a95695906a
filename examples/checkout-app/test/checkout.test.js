// The shop's integration test, run under payemu:
//   npx payemu exec --webhook-url http://127.0.0.1:3000/webhooks -- node --test
// payemu exec sets PAYEMU_URL, PAYEMU_API_KEY and PAYEMU_WEBHOOK_SECRET, and sends webhooks to
// the shop, which this test starts on PORT (3000 unless set: the port --webhook-url names).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createApp } from '../app.js';

const { PAYEMU_URL, PAYEMU_API_KEY, PAYEMU_WEBHOOK_SECRET } = process.env;
if (!PAYEMU_URL) throw new Error('run this test under payemu: npx payemu exec --webhook-url http://127.0.0.1:3000/webhooks -- node --test');
const port = Number(process.env.PORT ?? 3000);
const shop = `http://127.0.0.1:${port}`;
// A webhook that never comes fails the test rather than hanging it.
const limit = { timeout: 20_000 };
const app = createApp({ apiUrl: PAYEMU_URL, apiKey: PAYEMU_API_KEY, webhookSecret: PAYEMU_WEBHOOK_SECRET, publicUrl: shop });

before(() => new Promise((resolve) => app.server.listen(port, '127.0.0.1', resolve)));
after(() => new Promise((resolve) => app.server.close(resolve)));

async function order(amount) {
  const res = await fetch(`${shop}/orders`, { method: 'POST', body: JSON.stringify({ amount }) });
  assert.equal(res.status, 201);
  return res.json();
}

/** What the customer does on the hosted checkout page, without a browser (payemu's control plane). */
async function pay(sessionId, card) {
  const res = await fetch(`${PAYEMU_URL}/_payemu/sessions/${sessionId}/complete`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${PAYEMU_API_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ card_number: card }),
  });
  assert.equal(res.status, 200);
}

/** Resolves with the order once a webhook has changed it. */
function webhookFor(orderId) {
  return new Promise((resolve) => {
    const listener = (changed) => {
      if (changed.id !== orderId) return;
      app.events.off('order', listener);
      resolve(changed);
    };
    app.events.on('order', listener);
  });
}

test('a paid checkout marks the order paid, through a verified webhook', limit, async () => {
  const created = await order(25);
  assert.equal(created.order.status, 'pending');
  assert.match(created.checkout_url, /\/checkout\/cs_/);
  const updated = webhookFor(created.order.id);
  await pay(created.session_id, '4242 4242 4242 4242');
  assert.equal((await updated).status, 'paid');
  const res = await fetch(`${shop}/orders/${created.order.id}`);
  assert.equal((await res.json()).status, 'paid');
});

test('a declined card marks the order failed, with the reason', limit, async () => {
  const created = await order(12.5);
  const updated = webhookFor(created.order.id);
  await pay(created.session_id, '4000 0000 0000 0002');
  assert.deepEqual(await updated, { id: created.order.id, amount: 12.5, status: 'failed', failure: 'insufficient_funds' });
});

test('a webhook payemu did not sign is refused and changes nothing', limit, async () => {
  const created = await order(5);
  const forged = JSON.stringify({ event: 'payment.completed', data: { reference: created.order.id, status: 'PAID' } });
  for (const [signature, reason] of [
    [undefined, 'missing_signature'],
    [`t=1700000000,v1=${'0'.repeat(64)}`, 'timestamp_outside_tolerance'],
  ]) {
    const res = await fetch(`${shop}/webhooks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(signature && { 'X-Webhook-Signature': signature }) },
      body: forged,
    });
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { error: reason });
  }
  assert.equal(app.orders.get(created.order.id).status, 'pending');
});
