// `node bench/hot-path.js`: the CPU a `GET /v1/payments/{reference}` costs payemu beyond a bare
// Node `http` server, measured in one process (server and a raw-socket client together, over
// loopback), so the scheduler and the other processes of a busy machine affect it less than
// `npm run bench`. The client's share is the same for both servers: the difference of the two
// figures is payemu's own work. payemu runs from the build (dist/), with the plain request log
// of `payemu start` written to this process's stdout (run it with stdout on /dev/null or a pipe).
// See docs/performance.md.
//
//   node bench/hot-path.js [bare|DIR]...   each a payemu checkout (built) or `bare`; default: bare and this one
// Environment: BENCH_N=60000 requests a measurement, BENCH_REPS=3 measurements (the minimum is printed).
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { KEY, ROOT } from './lib.js';

const N = Number(process.env.BENCH_N ?? 60_000);
const REPS = Number(process.env.BENCH_REPS ?? 3);
const CONNECTIONS = 10;
const targets = process.argv.length > 2 ? process.argv.slice(2) : ['bare', ROOT];

/** Starts the server; resolves its port and a stop function. */
async function serve(target) {
  if (target === 'bare') {
    const body = Buffer.alloc(517, 'x');
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
        res.end(body);
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
    return { port: /** @type {net.AddressInfo} */ (server.address()).port, stop: async () => server.close() };
  }
  const root = path.resolve(target);
  const { startEmulator } = await import(path.join(root, 'dist/index.js'));
  const { createLogger } = await import(path.join(root, 'dist/ui/log.js'));
  const { uiHost } = await import(path.join(root, 'dist/ui/host.js'));
  const emulator = await startEmulator({});
  createLogger(uiHost(emulator), { json: false, color: false }).ready();
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const created = /** @type {{ data: { id: string } }} */ (
    await (await fetch(`${emulator.url}/v1/sessions`, { method: 'POST', headers, body: JSON.stringify({ amount: 10, reference: 'bench-get' }) })).json()
  );
  await fetch(`${emulator.url}/_payemu/sessions/${created.data.id}/complete`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ card_number: '4242424242424242' }),
  });
  return { port: Number(new URL(emulator.url).port), stop: () => emulator.close() };
}

/** `n` GETs over CONNECTIONS keep-alive sockets, one in flight on each; resolves the non-200 count. */
function load(port, n) {
  const request = `GET /v1/payments/bench-get HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${KEY}\r\n\r\n`;
  let sent = 0;
  let done = 0;
  let failed = 0;
  return new Promise((resolve) => {
    for (let i = 0; i < CONNECTIONS; i++) {
      const socket = net.connect(port, '127.0.0.1');
      socket.setEncoding('latin1');
      let carry = '';
      const next = () => {
        if (sent < n) {
          sent++;
          socket.write(request);
        } else socket.end();
      };
      socket.on('connect', next);
      socket.on('data', (chunk) => {
        const text = carry + chunk;
        // Each answer starts with its status line; a body never holds one.
        for (let at = text.indexOf('HTTP/1.1 '); at !== -1; at = text.indexOf('HTTP/1.1 ', at + 9)) {
          if (text.slice(at + 9, at + 12) !== '200') failed++;
          done++;
          if (done === n) resolve(failed);
          next();
        }
        carry = text.slice(-12);
      });
      socket.on('error', () => {});
    }
  });
}

const results = [];
for (const target of targets) {
  const server = await serve(target);
  await load(server.port, 5000); // warm-up
  const runs = [];
  for (let r = 0; r < REPS; r++) {
    const before = process.cpuUsage();
    const failed = await load(server.port, N);
    const used = process.cpuUsage(before);
    if (failed > 0) throw new Error(`${target}: ${failed} answers were not 200`);
    runs.push((used.user + used.system) / N);
  }
  await server.stop();
  results.push({ target, runs });
}
for (const { target, runs } of results) {
  process.stderr.write(`${target}: ${Math.min(...runs).toFixed(1)} µs of CPU a request, client included (runs: ${runs.map((r) => r.toFixed(1)).join(', ')})\n`);
}
