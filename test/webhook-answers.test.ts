import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import type { BusEvents } from '../src/bus/bus.js';
import { postWebhook } from '../src/webhooks/send.js';
import { emulator, pay } from './helpers/emulator.js';

// A receiver's answer is read up to 4 KiB (docs/webhooks.md): the rest is never buffered, an
// answer that never ends does not hold the attempt, and one that stalls times out.

const LIMIT = 4096;
const MiB = 1024 * 1024;

/**
 * A real receiver that answers `status` with `size` bytes (Infinity: without end; a function of
 * the request's number, from 1) made on the fly, as fast as the client reads them. `sent()` is
 * how many bytes it wrote.
 */
async function streamingReceiver(t: Test, status: number, sizeOf: number | ((n: number) => number)) {
  let written = 0;
  let requests = 0;
  const chunk = Buffer.alloc(64 * 1024, 'x');
  chunk.write('first bytes|');
  const server = http.createServer((req, res) => {
    const size = typeof sizeOf === 'number' ? sizeOf : sizeOf(++requests);
    written = 0;
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'Content-Type': 'text/plain' });
      let closed = false;
      res.on('close', () => (closed = true));
      res.on('error', () => (closed = true));
      const pump = () => {
        while (!closed && written < size) {
          const piece = size - written < chunk.length ? chunk.subarray(0, size - written) : chunk;
          written += piece.length;
          if (!res.write(piece)) return void res.once('drain', pump);
        }
        if (!closed) res.end();
      };
      pump();
    });
  });
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, sent: () => written };
}

/** The highest rss seen while `work` runs, minus the rss before it (sampled every 20 ms). */
async function rssGrowth<T>(work: () => Promise<T>): Promise<[T, number]> {
  globalThis.gc?.();
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return [result, peak - before];
  } finally {
    clearInterval(timer);
  }
}

function nextAttempt(e: { bus: { on: (name: 'webhook.attempt', fn: (a: BusEvents['webhook.attempt']) => void) => () => void } }) {
  return new Promise<BusEvents['webhook.attempt']>((resolve) => {
    const off = e.bus.on('webhook.attempt', (a) => {
      off();
      resolve(a);
    });
  });
}

t.test('a 256 MiB answer: the attempt keeps its status and 4 KiB, and memory does not grow by the answer', async (t) => {
  // The first delivery, a short answer, loads what sending needs: the second is measured.
  const r = await streamingReceiver(t, 200, (n) => (n === 1 ? 10 : 256 * MiB));
  // A timeout long enough for a client that reads the whole answer to do so (the defect).
  const e = await emulator(t, { webhookBackoff: '0,0,0', webhookTimeout: 60_000, webhookUrl: r.url });
  const warm = nextAttempt(e);
  await pay(e, { amount: 10, reference: 'warm-up' });
  t.equal((await warm).attempt?.status, 200, 'a first, short answer');
  const [attempt, growth] = await rssGrowth(async () => {
    const next = nextAttempt(e);
    await pay(e, { amount: 10, reference: 'big-answer' });
    return next;
  });
  t.equal(attempt.attempt?.status, 200, 'judged by its status');
  t.equal(attempt.attempt?.error, null);
  t.equal(attempt.event.delivery_status, 'delivered');
  const body = attempt.attempt?.response_body ?? '';
  t.equal(body.length, LIMIT, 'exactly the first 4 KiB kept');
  t.ok(body.startsWith('first bytes|'), 'from the start of the answer');
  t.ok(growth < 64 * MiB, `rss grew by ${Math.round(growth / MiB)} MiB (< 64 MiB)`);
  t.ok(r.sent() < 256 * MiB, `the receiver was stopped early (${Math.round(r.sent() / MiB)} MiB sent)`);
});

t.test('a large 500 answer: a failed attempt with its status and 4 KiB', async (t) => {
  const r = await streamingReceiver(t, 500, 32 * MiB);
  const e = await emulator(t, { webhookBackoff: '1h,1h,1h', webhookTimeout: 60_000, webhookUrl: r.url });
  const next = nextAttempt(e);
  await pay(e, { amount: 10 });
  const { attempt } = await next;
  t.equal(attempt?.status, 500);
  t.equal(attempt?.error, 'HTTP 500');
  t.equal(attempt?.response_body?.length, LIMIT);
});

t.test('an answer that never ends does not hold the attempt until the timeout', async (t) => {
  const r = await streamingReceiver(t, 200, Infinity);
  const e = await emulator(t, { webhookBackoff: '0,0,0', webhookTimeout: 15_000, webhookUrl: r.url });
  const next = nextAttempt(e);
  await pay(e, { amount: 10 });
  const { attempt } = await next;
  t.equal(attempt?.status, 200);
  t.equal(attempt?.error, null);
  t.equal(attempt?.response_body?.length, LIMIT);
  t.ok(attempt!.duration_ms! < 15_000, `ended in ${attempt!.duration_ms} ms, before the timeout`);
});

t.test('a receiver that sends its headers and then nothing: the attempt times out', async (t) => {
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('partial');
      held.push(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.close(() => resolve());
      }),
  );
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  const e = await emulator(t, { webhookBackoff: '1h,1h,1h', webhookTimeout: 300, webhookUrl: url });
  const next = nextAttempt(e);
  await pay(e, { amount: 10 });
  const { attempt, event } = await next;
  t.equal(attempt?.status, null, 'no answer within the timeout');
  t.equal(attempt?.error, 'timed out after 300 ms');
  t.equal(event.delivery_status, 'retrying');
});

t.test('postWebhook (payemu verify-handler reads answers with it) keeps 4 KiB of an endless answer', async (t) => {
  const r = await streamingReceiver(t, 400, Infinity);
  const outcome = await postWebhook(r.url, '{}', {}, { timeoutMs: 15_000 });
  t.same(outcome, { status: 400, response_body: outcome.response_body, error: 'HTTP 400' });
  t.equal(outcome.response_body?.length, LIMIT);
});

t.test('a short answer is kept whole, a long one to its first 4 KiB', async (t) => {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end(req.url === '/short' ? '{"received":true}' : 'é'.repeat(3000)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.same(await postWebhook(`${base}/short`, '{}', {}, { timeoutMs: 5000 }), { status: 200, response_body: '{"received":true}', error: null });
  const long = await postWebhook(`${base}/long`, '{}', {}, { timeoutMs: 5000 });
  t.equal(Buffer.byteLength(long.response_body!), LIMIT, 'at most 4 KiB of bytes');
});
