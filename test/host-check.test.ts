import http from 'node:http';
import net from 'node:net';
import t, { type Test } from 'tap';
import { startEmulator } from '../src/index.js';
import { runPayemu, startPayemu } from './helpers/cli.js';
import { emulator, type TestEmulator } from './helpers/emulator.js';

/**
 * The guard against DNS rebinding: while payemu listens on a loopback address, a request whose
 * Host header is not localhost, 127.0.0.1, [::1] or an --allowed-host name is a 403 in the error
 * envelope, before any route runs (the API, the control plane, the hosted pages, the health
 * check). Requests go out with node:http, which sends the Host header it is given; they always
 * connect to a loopback address, whatever the Host says.
 */

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

/** GET `path` from 127.0.0.1:`port` (or `address`) with the given Host header (none when null). */
function get(port: number, path: string, host: string | null, options: { address?: string; key?: string } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = options.key ? { Authorization: `Bearer ${options.key}` } : {};
    const req = http.request({ host: options.address ?? '127.0.0.1', port, path, headers, setHost: false, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.once('end', () => {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode!, headers: res.headers, text, body });
      });
    });
    if (host !== null) req.setHeader('Host', host);
    req.once('error', reject);
    req.end();
  });
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}

function assertForbidden(t: Test, answer: Raw, what: string): void {
  t.equal(answer.status, 403, `${what}: 403 (${answer.text.slice(0, 200)})`);
  t.match(answer.headers['content-type'], /application\/json/, `${what}: JSON`);
  t.match(answer.body, { errors: [{ status: '403', title: 'Forbidden', detail: /DNS rebinding/ }] }, `${what}: the error envelope`);
}

/** The API, a hosted page and the health check, as a client sending `host` sees them. */
async function threeRoutes(e: TestEmulator, host: string | null, address?: string) {
  const port = portOf(e.url);
  const session = (await e.api.post('/v1/sessions', { amount: 5 })).body.data;
  return {
    api: await get(port, '/v1/me', host, { address, key: e.keys.test }),
    page: await get(port, new URL(session.attributes.checkout_url).pathname, host, { address }),
    health: await get(port, '/_payemu/health', host, { address }),
  };
}

t.test('bound to 127.0.0.1: a foreign Host is refused on every route, before routing', async (t) => {
  const e = await emulator(t);
  const port = portOf(e.url);
  for (const host of ['evil.example:4242', 'evil.example', `evil.example:${port}`, 'localhost.evil.example', '127.0.0.1.nip.io', 'localhost.', '']) {
    const { api, page, health } = await threeRoutes(e, host);
    assertForbidden(t, api, `${JSON.stringify(host)} /v1/me`);
    assertForbidden(t, page, `${JSON.stringify(host)} a checkout page`);
    assertForbidden(t, health, `${JSON.stringify(host)} /_payemu/health`);
  }
  assertForbidden(t, await get(port, '/no/such/route', 'evil.example:4242'), 'an unknown route is refused, not a 404');
  assertForbidden(t, await get(port, '/v1/me', 'evil.example:4242'), 'refused before authentication: no 401');
  t.match((await get(port, '/v1/me', 'evil.example')).body.errors[0].detail, /--allowed-host evil\.example/, 'the detail says how to allow it');

  // Nothing reached a route: a refused POST creates nothing.
  const link = { title: 'Rebound', products: [{ id: 1 }] };
  t.equal((await e.api.post('/v1/payment-links', link)).status, 201, 'the same POST from 127.0.0.1 creates a link');
  const before = (await e.api.get('/v1/payment-links')).body.data.length;
  const refused = await new Promise<number>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/v1/payment-links',
        method: 'POST',
        agent: false,
        headers: { Host: 'evil.example', Authorization: `Bearer ${e.keys.test}`, 'Content-Type': 'application/json' },
      },
      (res) => {
        res.resume().once('end', () => resolve(res.statusCode!));
      },
    );
    req.once('error', reject);
    req.end(JSON.stringify(link));
  });
  t.equal(refused, 403);
  t.equal((await e.api.get('/v1/payment-links')).body.data.length, before, 'no link was created');
});

t.test('bound to 127.0.0.1: localhost, 127.0.0.1 and [::1] on any port are answered', async (t) => {
  const e = await emulator(t);
  const port = portOf(e.url);
  for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'localhost', 'LOCALHOST:80', '127.0.0.1:1', '[::1]']) {
    const { api, page, health } = await threeRoutes(e, host);
    t.equal(api.status, 200, `${host} /v1/me`);
    t.equal(page.status, 200, `${host} the checkout page`);
    t.match(page.headers['content-type'], /text\/html/);
    t.equal(health.status, 200, `${host} /_payemu/health`);
  }
});

t.test('a request without any Host header is answered as before (HTTP/1.0)', async (t) => {
  const e = await emulator(t);
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port: portOf(e.url) }, () => socket.end('GET /_payemu/health HTTP/1.0\r\n\r\n'));
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.once('end', () => resolve(text));
    socket.once('error', reject);
  });
  t.match(answer, /^HTTP\/1\.1 200 /);
  t.equal((await get(portOf(e.url), '/_payemu/health', null)).status, 200, 'HTTP/1.1 without Host too');
});

t.test('allowedHosts: the names given are answered too, on any port', async (t) => {
  const e = await emulator(t, { allowedHosts: ['dev.test', 'My_Service', '::2'] });
  const port = portOf(e.url);
  for (const host of [`dev.test:${port}`, 'DEV.test', 'my_service:8080', '[::2]:1']) {
    const { api, page, health } = await threeRoutes(e, host);
    t.equal(api.status, 200, `${host} /v1/me`);
    t.equal(page.status, 200, `${host} the checkout page`);
    t.equal(health.status, 200, `${host} /_payemu/health`);
  }
  assertForbidden(t, await get(port, '/_payemu/health', 'other.test'), 'a name not given');
  assertForbidden(t, await get(port, '/_payemu/health', 'sub.dev.test'), 'a subdomain of a name given');
  await t.rejects(startEmulator({ allowedHosts: ['dev.test:8080'] }), /--allowed-host: not a host name: dev\.test:8080/, 'a name with a port is refused');
  await t.rejects(startEmulator({ allowedHosts: ['http://dev.test'] }), /not a host name/);
});

t.test('bound to ::1, the same check applies', async (t) => {
  const e = await emulator(t, { host: '::1' });
  t.match(e.url, /^http:\/\/\[::1\]:\d+$/);
  const { api, health } = await threeRoutes(e, `[::1]:${portOf(e.url)}`, '::1');
  t.equal(api.status, 200);
  t.equal(health.status, 200);
  assertForbidden(t, await get(portOf(e.url), '/_payemu/health', 'evil.example', { address: '::1' }), 'evil.example on ::1');
});

t.test('bound to a loopback address other than 127.0.0.1: its own URL is answered', async (t) => {
  const e = await emulator(t, { host: '127.0.0.2' }).catch(() => undefined);
  if (!e) return void t.pass('127.0.0.2 is not available here: nothing to check');
  const port = portOf(e.url);
  t.equal((await get(port, '/_payemu/health', `127.0.0.2:${port}`, { address: '127.0.0.2' })).status, 200, 'the host of the printed URL');
  assertForbidden(t, await get(port, '/_payemu/health', 'evil.example', { address: '127.0.0.2' }), 'evil.example');
});

t.test('bound to 0.0.0.0 (not loopback): no Host check', async (t) => {
  const e = await emulator(t, { host: '0.0.0.0' });
  const { api, page, health } = await threeRoutes(e, 'evil.example:4242', '127.0.0.1');
  t.equal(api.status, 200, '/v1/me');
  t.equal(page.status, 200, 'the checkout page');
  t.equal(health.status, 200, '/_payemu/health');
});

t.test('payemu start --allowed-host (repeatable)', async (t) => {
  const { proc, port } = await startPayemu(t, ['--no-ui', '--in-memory', '--allowed-host', 'dev.test', '--allowed-host', 'Other.Test']);
  t.equal((await get(port, '/_payemu/health', `dev.test:${port}`)).status, 200, 'dev.test');
  t.equal((await get(port, '/_payemu/health', 'other.test')).status, 200, 'other.test');
  t.equal((await get(port, '/_payemu/health', `127.0.0.1:${port}`)).status, 200, '127.0.0.1');
  assertForbidden(t, await get(port, '/_payemu/health', `evil.example:${port}`), 'evil.example');
  t.match(await proc.waitForLine(/ 403 GET \/_payemu\/health/), / 403 GET \/_payemu\/health/, 'the refusal is logged like any request');
  t.same(await proc.stop('SIGTERM'), { code: 0, signal: null });

  const bad = await runPayemu(t, ['start', '--port', '0', '--no-ui', '--in-memory', '--allowed-host', 'dev.test:8080']);
  t.equal(bad.code, 2, 'a name with a port is bad usage');
  t.match(bad.stderr, /--allowed-host: not a host name: dev\.test:8080/);
});

t.test('payemu exec --allowed-host', async (t) => {
  // The command asks payemu with two Host headers and exits with the two statuses in its code.
  const script = `
    const http = require('node:http');
    const url = new URL(process.env.PAYEMU_URL);
    const ask = (host) => new Promise((resolve) => http.get({ host: url.hostname, port: url.port, path: '/_payemu/health', setHost: false, headers: { Host: host } }, (res) => { res.resume(); resolve(res.statusCode); }));
    (async () => {
      const allowed = await ask('dev.test:' + url.port);
      const refused = await ask('evil.example');
      process.exit(allowed === 200 && refused === 403 ? 0 : 9);
    })();`;
  const run = await runPayemu(t, ['exec', '--allowed-host', 'dev.test', '--', process.execPath, '-e', script]);
  t.equal(run.code, 0, `dev.test answered, evil.example refused: ${run.stderr}`);
});
