// The baseline of the benchmark: a bare Node `http` server that answers every request with a
// fixed JSON body of about the size of payemu's `GET /v1/payments/{reference}` answer. It runs
// in its own process, started and measured exactly like payemu.
//   node bench/bare-server.js <port>
import http from 'node:http';

const body = Buffer.from(
  JSON.stringify({
    data: {
      id: '1',
      type: 'payments',
      attributes: {
        reference: 'bench-get',
        amount: '10.00',
        currency: 'USD',
        status: 'PAID',
        paid: true,
        provider: 'payemu',
        customer_email: null,
        card_last: '4242',
        card_brand: 'visa',
        capture_method: 'automatic',
        description: null,
        metadata: {},
        failure_code: null,
        failure_message: null,
        captured_at: '2026-01-01T00:00:00.000000Z',
        created_at: '2026-01-01T00:00:00.000000Z',
        updated_at: '2026-01-01T00:00:00.000000Z',
      },
      links: { self: 'http://127.0.0.1:4242/v1/payments/bench-get' },
    },
  }),
);

const server = http.createServer((req, res) => {
  // Read the request body (a POST's JSON) before answering, as any real server does.
  req.resume();
  req.on('end', () => {
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
    res.end(body);
  });
});

server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  process.stdout.write(`bare listening on http://127.0.0.1:${port}\n`);
});

const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
