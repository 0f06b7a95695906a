import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { createClient } from './client.js';
import { NOT_HTTP } from './errors.js';
import { httpTransport } from './http-transport.js';

/** A server whose answer to each path is a small handler; what it received is kept. */
async function server(t: Test, routes: Record<string, (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void>) {
  const received: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const srv = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: body.toString() });
      routes[req.url ?? '']?.(req, res, body);
    });
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    srv.closeAllConnections();
    srv.close();
  });
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`, received };
}

t.test('answers as fetch does: status, headers, body; sends the method, headers and body as given', async (t) => {
  const s = await server(t, {
    '/echo': (_req, res, body) => {
      res.writeHead(201, 'Made', [
        ['Content-Type', 'application/json'],
        ['Set-Cookie', 'a=1'],
        ['Set-Cookie', 'b=2'],
      ]);
      res.end(JSON.stringify({ got: body.toString() }));
    },
    '/empty': (_req, res) => res.writeHead(204).end(),
    '/moved': (_req, res) => res.writeHead(302, { Location: '/echo' }).end('see /echo'),
  });
  const answer = await httpTransport(`${s.url}/echo`, {
    method: 'POST',
    headers: { Authorization: 'Bearer k', 'Content-Type': 'application/json' },
    body: '{"a":1}',
  });
  t.equal(answer.status, 201);
  t.ok(answer.ok);
  t.equal(answer.headers.get('content-type'), 'application/json');
  t.equal(answer.headers.get('Content-Type'), 'application/json', 'a header by any case of its name');
  t.equal(answer.headers.get('set-cookie'), 'a=1, b=2', 'a repeated header joined as `Headers.get` joins it');
  t.equal(answer.headers.get('x-none'), null);
  t.same(JSON.parse(await answer.text()), { got: '{"a":1}' });
  t.match(s.received[0], { method: 'POST', headers: { authorization: 'Bearer k', 'content-length': '7' }, body: '{"a":1}' });

  const bytes = new TextEncoder().encode('{"é":2}');
  await (await httpTransport(`${s.url}/echo`, { method: 'PUT', body: bytes })).text();
  t.match(s.received[1], { method: 'PUT', headers: { 'content-length': String(bytes.length) }, body: '{"é":2}' }, 'bytes go as they are');

  const empty = await httpTransport(`${s.url}/empty`, { method: 'DELETE' });
  t.equal(empty.status, 204);
  t.equal(empty.body, null);
  t.equal(await empty.text(), '', 'a 204 has no body');

  const moved = await httpTransport(`${s.url}/moved`, { redirect: 'manual' });
  t.equal(moved.status, 302, 'a redirect is answered, not followed');
  t.notOk(moved.ok);
  t.equal(moved.headers.get('location'), '/echo');
  t.equal(await moved.text(), 'see /echo');
  t.equal(s.received.length, 4, 'nothing followed the redirect');
});

t.test('the text is read as `Response.text()` reads it: UTF-8, a byte order mark dropped, a bad byte replaced', async (t) => {
  const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('é '), Buffer.from([0xff]), Buffer.from(' ok')]);
  const s = await server(t, { '/bytes': (_req, res) => res.writeHead(200).end(bytes) });
  const text = await (await httpTransport(`${s.url}/bytes`, {})).text();
  t.equal(text, await new Response(bytes).text());
  t.equal(text, 'é \ufffd ok');
});

t.test('the body streams as it arrives, and an abort ends it with an AbortError', async (t) => {
  let more: (() => void) | undefined;
  const s = await server(t, {
    '/stream': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write('first\n');
      more = () => res.write('second\n');
    },
    '/never': () => {},
  });
  const abort = new AbortController();
  const answer = await httpTransport(`${s.url}/stream`, { signal: abort.signal });
  const reader = answer.body![Symbol.asyncIterator]();
  t.equal(new TextDecoder().decode((await reader.next()).value), 'first\n', 'the first chunk before the answer ends');
  more!();
  t.equal(new TextDecoder().decode((await reader.next()).value), 'second\n');
  abort.abort();
  await t.rejects(reader.next(), { name: 'AbortError' }, 'an abort while the body streams');

  const early = new AbortController();
  const waiting = httpTransport(`${s.url}/never`, { signal: early.signal });
  early.abort();
  await t.rejects(waiting, { name: 'AbortError' }, 'an abort before the answer');
});

t.test('the other end gone mid-answer: the body fails, saying so', async (t) => {
  const s = await server(t, {
    '/cut': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write('first\n', () => res.socket?.destroy());
    },
  });
  const answer = await httpTransport(`${s.url}/cut`, {});
  await t.rejects(answer.text(), { code: 'ECONNRESET', message: `the connection to ${s.url} closed before the answer ended` });
});

t.test('nothing listening: the system error, with its code', async (t) => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  await t.rejects(httpTransport(`http://127.0.0.1:${port}/`, {}), { code: 'ECONNREFUSED' });
});

t.test('a status no Response can hold (999): a rejection with its own code, not a throw in the callback', async (t) => {
  const odd = (_req: http.IncomingMessage, res: http.ServerResponse) => res.writeHead(999, 'Odd').end('?');
  const s = await server(t, { '/odd': odd, '/_payemu/clock': odd });
  await t.rejects(httpTransport(`${s.url}/odd`, {}), { code: NOT_HTTP, message: 'what answers there sent status 999, which HTTP does not have' });
  // What the CLI prints of it (exit 3, as for no server at all).
  const client = createClient({ url: s.url, key: 'sk_test_x' });
  await t.rejects(client.clock(), { name: 'Unreachable', message: `no payemu at ${s.url}: what answers there sent status 999, which HTTP does not have` });
});
