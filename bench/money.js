// `npm run bench:money`: captures and refunds per second on a file-backed payemu (issue 3).
// Seeds N held and N paid payments through the API, then captures each held one and refunds
// each paid one under autocannon (50 connections).  BENCH_MONEY_N=5000 by default.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AUTH, load, request, startServer } from './lib.js';

const N = Number(process.env.BENCH_MONEY_N ?? 5000);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-money-'));
const server = await startServer('payemu', { dataDir, nodeArgs: process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : [] });

async function seed(prefix, capture) {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < N; i = next++) {
      const session = await request(server.url, 'POST', '/v1/sessions', { amount: 10, reference: `${prefix}-${i}`, capture_method: capture });
      await request(server.url, 'POST', `/_payemu/sessions/${session.json.data.id}/complete`, { card_number: '4242424242424242' });
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

function requests(pathOf, body) {
  let n = 0;
  return [{ method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, path: pathOf(n++), body }) }];
}

try {
  await seed('hold', 'manual');
  await seed('paid', 'automatic');
  const capture = await load({ url: server.url, connections: 50, amount: N, requests: requests((i) => `/v1/payments/hold-${i}/capture`, '{}') });
  const refund = await load({ url: server.url, connections: 50, amount: N, requests: requests((i) => `/v1/payments/paid-${i}/refunds`, '{"amount":1}') });
  const row = (name, r) =>
    `| ${name} | ${r.rps} req/s | p50 ${r.latency.p50} ms | p99 ${r.latency.p99} ms | ${r.ok} ok, ${r.non2xx} refused, ${r.errors} errors |`;
  console.log(row('POST /v1/payments/{reference}/capture', capture));
  console.log(row('POST /v1/payments/{reference}/refunds', refund));
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
