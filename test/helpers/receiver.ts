import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Handler = (req: Received, res: http.ServerResponse) => void;

/**
 * A real local webhook receiver on a free port. `answer` decides each response (default 200);
 * `next()` resolves with the next request received.
 */
export async function receiver(t: Test, answer: Handler = (_req, res) => res.end('ok')) {
  const received: Received[] = [];
  const waiters: ((r: Received) => void)[] = [];
  let handler = answer;
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const entry = { headers: req.headers, body };
      received.push(entry);
      handler(entry, res);
      waiters.shift()?.(entry);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  t.teardown(close);
  return {
    url,
    received,
    close,
    /** Replaces the answer for later requests. */
    answer: (next: Handler) => (handler = next),
    next: () => new Promise<Received>((resolve) => waiters.push(resolve)),
  };
}

/** A URL on which nothing listens (a port just freed). */
export async function deadUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/webhooks`;
}
