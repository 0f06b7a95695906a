// Benchmark of webhook delivery (issue 4): events delivered per second to a local receiver
// that answers 204 at once. Triggers N payments through the control plane, then waits until
// every event is delivered.  node bench/webhooks.js [--events 2000]
import http from 'node:http';
import { startEmulator } from 'payemu';

const i = process.argv.indexOf('--events');
const total = i === -1 ? 2000 : Number(process.argv[i + 1]);
let received = 0;
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received++;
    res.writeHead(204).end();
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', () => resolve(undefined)));
const payemu = await startEmulator({
  webhookUrl: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (receiver.address()).port}/`,
  webhookBackoff: '0,0,0',
});
let delivered = 0;
let failed = 0;
const done = new Promise((resolve) =>
  payemu.bus.on('webhook.attempt', ({ event }) => {
    if (event.delivery_status === 'delivered') delivered++;
    if (event.delivery_status === 'failed') failed++;
    if (delivered + failed === total) resolve(undefined);
  }),
);
const headers = { Authorization: `Bearer ${payemu.keys.test}`, 'Content-Type': 'application/json' };
const t0 = performance.now();
// Sessions paid 50 at a time: each raises one payment.completed.
for (let sent = 0; sent < total; sent += 50) {
  await Promise.all(
    Array.from({ length: Math.min(50, total - sent) }, async () => {
      const s = /** @type {any} */ (await (await fetch(`${payemu.url}/v1/sessions`, { method: 'POST', headers, body: '{"amount":1}' })).json());
      await fetch(`${payemu.url}/_payemu/sessions/${s.data.id}/complete`, { method: 'POST', headers, body: '{"card_number":"4242424242424242"}' });
    }),
  );
}
await done;
const seconds = (performance.now() - t0) / 1000;
console.log(
  `| ${total} events | ${delivered} delivered, ${failed} failed | ${seconds.toFixed(1)} s | ${Math.round(delivered / seconds)} deliveries/s (with the API calls that raise them) | receiver got ${received} |`,
);
await payemu.close();
receiver.close();
