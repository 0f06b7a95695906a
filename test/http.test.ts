import { request } from 'node:http';
import net from 'node:net';
import t from 'tap';
import { open, v1 } from '../src/http/route.js';
import { assertError, emulator } from './helpers/emulator.js';

// A route that crashes, to prove a bug inside payemu is a 500 in the envelope and not a dead server.
const crash = open({
  method: 'GET',
  path: '/_test/crash',
  handle: () => {
    throw new TypeError('boom');
  },
});
const asyncCrash = v1({
  method: 'POST',
  path: '/_test/async-crash',
  handle: async () => {
    await Promise.resolve();
    throw new Error('async boom');
  },
});

t.test('unknown routes are a 404 in the envelope', async (t) => {
  const e = await emulator(t);
  for (const path of ['/v1/nope', '/', '/v2/sessions', '/v1/payments/a/b/c']) {
    assertError(t, await e.api.get(path), 404, /No route matches/);
  }
  assertError(t, await e.anon.get('/v1/unknown'), 404);
});

t.test('paths are exact in letter case: another case is no route', async (t) => {
  const e = await emulator(t);
  assertError(t, await e.api.post('/V1/sessions', { amount: 1, reference: 'case-1' }), 404, /No route matches POST \/V1\/sessions/);
  assertError(t, await e.api.get('/v1/Me'), 404);
  assertError(t, await e.api.request('DELETE', '/V1/SESSIONS'), 404);
  t.equal((await e.api.get('/v1/me')).status, 200, 'the exact path still answers');
});

t.test('a known route with another method is a 405 with Allow', async (t) => {
  const e = await emulator(t);
  const del = await e.api.request('DELETE', '/v1/sessions');
  assertError(t, del, 405);
  t.equal(del.headers.get('allow'), 'POST');
  const put = await e.api.request('PUT', '/v1/payments/abc');
  assertError(t, put, 405);
  t.equal(put.headers.get('allow'), 'GET');
  const post = await e.api.post('/v1/me', {});
  t.equal(post.headers.get('allow'), 'GET');
});

t.test('malformed JSON is a 400 and changes nothing', async (t) => {
  const e = await emulator(t);
  for (const body of ['{', '{"amount": 10,}', 'nope', '{"amount": 1e}', '[1,2']) {
    assertError(t, await e.api.post('/v1/sessions', body), 400, /not valid JSON/);
  }
  t.equal((await e.api.get('/v1/payments')).body.meta.total, 0);
});

t.test('a body that is not JSON is a 415', async (t) => {
  const e = await emulator(t);
  const res = await e.api.post('/v1/sessions', 'amount=10', { 'Content-Type': 'application/x-www-form-urlencoded' });
  assertError(t, res, 415, /application\/json/);
  const noType = await e.api.request('POST', '/v1/sessions', undefined, {});
  assertError(t, noType, 422, /amount field is required/);
});

t.test('a body over 1 MiB is a 413', async (t) => {
  const e = await emulator(t);
  const big = JSON.stringify({ amount: 10, description: 'x'.repeat(1024 * 1024) });
  assertError(t, await e.api.post('/v1/sessions', big), 413);
  // Streamed without Content-Length (chunked), the limit holds too.
  const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const url = new URL(`${e.url}/v1/sessions`);
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { Authorization: `Bearer ${e.keys.test}`, 'Content-Type': 'application/json' },
      },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    for (let i = 0; i < 20; i++) req.write('x'.repeat(100 * 1024));
    req.end();
  });
  t.equal(chunked.status, 413);
  t.equal(JSON.parse(chunked.body).errors[0].status, '413');
  // And the server still serves.
  t.equal((await e.api.get('/v1/me')).status, 200);
});

t.test('a crash inside a route is a logged 500 and the server keeps serving', async (t) => {
  const e = await emulator(t, { extraRoutes: [crash, asyncCrash] });
  const logged: string[] = [];
  e.bus.on('server.error', (event) => logged.push(event.error));
  const res = await e.anon.get('/_test/crash');
  assertError(t, res, 500);
  t.notMatch(res.text, /boom/, 'the answer does not leak the exception');
  assertError(t, await e.api.post('/_test/async-crash', {}), 500);
  t.same(logged, ['boom', 'async boom']);
  t.equal((await e.api.get('/v1/me')).status, 200);
});

t.test('validation errors are a 422 with meta.errors keyed by dot paths', async (t) => {
  const e = await emulator(t);
  const res = await e.api.post('/v1/sessions', {
    amount: 'ten',
    currency: 'XYZ',
    customer_email: 'not-an-email',
    success_url: 'javascript:alert(1)',
    tax: { amount: 1, lines: [{ rate: 5 }] },
    capture_method: 'later',
  });
  assertError(t, res, 422);
  const errors = res.body.errors[0].meta.errors;
  t.same(
    Object.keys(errors).sort(),
    ['amount', 'capture_method', 'currency', 'customer_email', 'success_url', 'tax.lines.0.amount', 'tax.lines.0.name'].sort(),
  );
  t.same(errors.amount, ['The amount field must be a number.']);
  t.same(errors['tax.lines.0.name'], ['The tax.lines.0.name field is required.']);
  t.match(res.body.errors[0].detail, /and 6 more errors/);
});

t.test('the body must be an object', async (t) => {
  const e = await emulator(t);
  for (const body of ['[]', '"amount"', '42', 'null', 'true']) {
    const res = await e.api.post('/v1/sessions', body);
    assertError(t, res, 422);
  }
});

t.test('health needs no key; responses are JSON', async (t) => {
  const e = await emulator(t);
  const res = await e.anon.get('/_payemu/health');
  t.equal(res.status, 200);
  t.same(res.body, { status: 'ok' });
});

/** Reads `count` whole HTTP answers (Content-Length bodies) from `socket`, in the order they came. */
function answers(socket: net.Socket, count: number): Promise<{ status: number; body: string }[]> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const got: { status: number; body: string }[] = [];
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) break;
        const head = buffer.subarray(0, end).toString('latin1');
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) break;
        got.push({ status: Number(head.split(' ')[1]), body: buffer.subarray(end + 4, end + 4 + length).toString('utf8') });
        buffer = buffer.subarray(end + 4 + length);
      }
      if (got.length >= count) resolve(got);
    });
    socket.once('error', reject);
    socket.once('close', () => reject(new Error(`closed after ${got.length} answers`)));
  });
}

t.test('answers reach their own requests: pipelined on one connection, and many connections at once', async (t) => {
  const e = await emulator(t);
  const { hostname, port } = new URL(e.url);
  const post = (reference: string) => {
    const body = JSON.stringify({ amount: 5, reference });
    return `POST /v1/sessions HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer sk_test_payemu_acme\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  };
  // Pipelined: five requests in one write, answered in order on the connection.
  const socket = net.connect(Number(port), hostname);
  t.teardown(() => socket.destroy());
  const five = answers(socket, 5);
  socket.write(['p1', 'p2', 'p3', 'p4', 'p5'].map(post).join(''));
  const piped = await five;
  t.same(
    piped.map((a) => [a.status, JSON.parse(a.body).data.attributes.reference]),
    ['p1', 'p2', 'p3', 'p4', 'p5'].map((r) => [201, r]),
    'each answer in the order of its request',
  );
  // Ten connections, each with a request in the same moment: every answer is its request's.
  const sockets = Array.from({ length: 10 }, () => net.connect(Number(port), hostname));
  t.teardown(() => {
    for (const s of sockets) s.destroy();
  });
  await Promise.all(sockets.map((s) => new Promise((resolve) => s.once('connect', resolve))));
  const replies = sockets.map((s) => answers(s, 1));
  for (const [i, s] of sockets.entries()) s.write(post(`c${i}`));
  const got = (await Promise.all(replies)).map(([a]) => JSON.parse(a!.body).data);
  t.same(
    got.map((d) => d.attributes.reference),
    sockets.map((_, i) => `c${i}`),
  );
  for (const d of [...piped.map((a) => JSON.parse(a.body).data), ...got]) {
    const stored = await e.api.get(`/v1/sessions/${d.id}`);
    t.equal(stored.body.data.attributes.reference, d.attributes.reference, `${d.attributes.reference} is stored`);
  }
});
