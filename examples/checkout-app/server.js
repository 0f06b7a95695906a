// Runs the shop: `PAYEMU_URL=... PAYEMU_API_KEY=... PAYEMU_WEBHOOK_SECRET=... node server.js`
// (or under `npx payemu exec -- node server.js`, which sets them). PORT defaults to 3000.
import { createApp } from './app.js';

const port = Number(process.env.PORT ?? 3000);
const { server } = createApp({
  apiUrl: process.env.PAYEMU_URL ?? 'http://127.0.0.1:4242',
  apiKey: process.env.PAYEMU_API_KEY ?? 'sk_test_payemu_acme',
  webhookSecret: process.env.PAYEMU_WEBHOOK_SECRET ?? 'whsec_payemu_acme',
  publicUrl: `http://127.0.0.1:${port}`,
});
server.listen(port, '127.0.0.1', () => console.log(`shop listening on http://127.0.0.1:${port}`));
