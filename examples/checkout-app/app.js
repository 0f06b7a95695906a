// A shop's backend with plain node:http: it creates a checkout session for an order through the
// payment API, sends the customer to the hosted checkout page, and learns the outcome from the
// webhooks it receives, which it verifies before believing them.
import { EventEmitter } from 'node:events';
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { verifyWebhook, WebhookVerificationError } from 'payemu';

/**
 * @param {{ apiUrl: string, apiKey: string, webhookSecret: string, publicUrl?: string }} options
 *   apiUrl and apiKey: the payment API (payemu in tests, the real service in production);
 *   webhookSecret: the Source's `whsec_` secret the webhooks are signed with.
 */
export function createApp({ apiUrl, apiKey, webhookSecret, publicUrl = 'http://127.0.0.1:3000' }) {
  /** @type {Map<string, { id: string, amount: number, status: 'pending' | 'paid' | 'failed', failure?: string }>} */
  const orders = new Map();
  // 'order' is emitted with each order whose status a webhook changed (tests wait on it).
  const events = new EventEmitter();

  async function createOrder(amount) {
    const order = { id: `order-${randomUUID()}`, amount, status: 'pending' };
    const res = await fetch(`${apiUrl}/v1/sessions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        amount,
        reference: order.id, // the payment will carry the same reference: that is how webhooks find the order
        success_url: `${publicUrl}/orders/${order.id}`,
        cancel_url: `${publicUrl}/`,
      }),
    });
    const body = await res.json();
    if (res.status !== 201) throw new Error(`the payment API refused the session (${res.status}): ${JSON.stringify(body.errors)}`);
    orders.set(order.id, order);
    return { order, session_id: body.data.id, checkout_url: body.data.attributes.checkout_url };
  }

  function receiveWebhook(rawBody, signature) {
    // Verified on the raw bytes, before parsing: a forged or altered body throws.
    const event = verifyWebhook(rawBody, signature, webhookSecret);
    const order = orders.get(event.data.reference);
    if (!order) return; // not one of ours (a payment made elsewhere): acknowledged, ignored
    if (event.event === 'payment.completed') order.status = 'paid';
    else if (event.event === 'payment.failed') Object.assign(order, { status: 'failed', failure: event.data.failure_code });
    else return;
    events.emit('order', order);
  }

  const server = http.createServer(async (req, res) => {
    const send = (status, value) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    try {
      const url = new URL(req.url, 'http://localhost');
      const body = await readBody(req);
      if (req.method === 'POST' && url.pathname === '/orders') {
        const { amount } = JSON.parse(body.toString('utf8') || '{}');
        if (typeof amount !== 'number' || !(amount > 0)) return send(422, { error: 'amount must be a positive number' });
        return send(201, await createOrder(amount));
      }
      if (req.method === 'GET' && url.pathname.startsWith('/orders/')) {
        const order = orders.get(decodeURIComponent(url.pathname.slice('/orders/'.length)));
        return order ? send(200, order) : send(404, { error: 'no such order' });
      }
      if (req.method === 'POST' && url.pathname === '/webhooks') {
        try {
          receiveWebhook(body, req.headers['x-webhook-signature']);
        } catch (error) {
          if (error instanceof WebhookVerificationError) return send(400, { error: error.reason });
          throw error;
        }
        res.writeHead(204).end();
        return;
      }
      send(404, { error: 'not found' });
    } catch (error) {
      send(500, { error: String(error) });
    }
  });

  return { server, orders, events };
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
