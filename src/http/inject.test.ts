import http from 'node:http';
import t from 'tap';
import { injector, Unanswered } from './inject.js';
import { noteOf } from './request-note.js';

// A server that is never listening: an injected request reaches its `request` listener all the same.
function server(handle: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void): http.Server {
  return http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handle(req, body, res));
  });
}

t.test('a request reaches the listener with its method, target, headers, body and a local caller; its answer comes back parsed', async (t) => {
  const seen: unknown[] = [];
  const inject = injector(
    server((req, body, res) => {
      seen.push({
        method: req.method,
        url: req.url,
        host: req.headers.host,
        auth: req.headers.authorization,
        type: req.headers['content-type'],
        body,
        from: req.socket.remoteAddress,
      });
      res.writeHead(201, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ ok: true }));
    }),
    () => '127.0.0.1:4242',
  );
  const answer = await inject({ method: 'POST', path: '/v1/sessions?x=1', body: '{"amount":1}', headers: { Authorization: 'Bearer k' } });
  t.same(answer, { status: 201, body: { ok: true } });
  t.same(seen, [
    { method: 'POST', url: '/v1/sessions?x=1', host: '127.0.0.1:4242', auth: 'Bearer k', type: 'application/json', body: '{"amount":1}', from: '127.0.0.1' },
  ]);
});

t.test('an answer that is not JSON comes back as text; one written in parts, whole', async (t) => {
  const inject = injector(
    server((_req, _body, res) => {
      res.writeHead(200);
      res.write('not ');
      res.end('json');
    }),
    () => 'localhost',
  );
  t.same(await inject({ method: 'GET', path: '/' }), { status: 200, body: 'not json' });
});

t.test('a connection closed unanswered (a dropping fault) rejects', async (t) => {
  const inject = injector(
    server((req) => req.socket.destroy()),
    () => 'localhost',
  );
  await t.rejects(inject({ method: 'GET', path: '/v1/me' }), /GET \/v1\/me: the connection was closed unanswered/);
});

t.test("the answer carries its Retry-After, and the status of the real answer a fault with apply replaced; a dropped one's too", async (t) => {
  const inject = injector(
    server((req, _body, res) => {
      noteOf(req).carried = 201;
      if (req.url === '/drop') return req.socket.destroy();
      // As payemu's envelope sets a reply's own headers (setHeader), before the status.
      res.setHeader('Retry-After', '1');
      res.writeHead(429);
      res.end('{}');
    }),
    () => 'localhost',
  );
  t.same(await inject({ method: 'POST', path: '/v1/sessions' }), { status: 429, body: {}, carried: 201, retryAfter: '1' });
  const dropped = await inject({ method: 'POST', path: '/drop' }).catch((error: unknown) => error);
  t.type(dropped, Unanswered);
  t.equal((dropped as Unanswered).carried, 201);
});
