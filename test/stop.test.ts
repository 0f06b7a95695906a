import net from 'node:net';
import t from 'tap';
import { emulator } from './helpers/emulator.js';

/**
 * `close()` (and so the stop of `payemu start`) ends every connection that carries no request:
 * a browser beside an open dashboard keeps a connection it has sent nothing on yet
 * (a preconnect) and the live refresh's event stream, a client pool keeps idle sockets, and a
 * stalled client may have sent part of a request's head. A request whose head is in still gets
 * its answer, on a connection then closed.
 */

/** A raw connection to `url`, with all it has read so far. */
async function connect(url: string) {
  const { port } = new URL(url);
  const socket = net.connect(Number(port), '127.0.0.1');
  const read = { text: '' };
  socket.setEncoding('utf8').on('data', (chunk: string) => (read.text += chunk));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {}); // a reset at close is expected
  await new Promise((resolve) => socket.once('connect', resolve));
  return { socket, read, closed };
}

/** Resolves once `check` holds for what `conn` has read (checked as each chunk comes). */
const until = (conn: Awaited<ReturnType<typeof connect>>, check: (text: string) => boolean) =>
  new Promise<void>((resolve) => {
    const look = () => {
      if (!check(conn.read.text)) return;
      conn.socket.off('data', look);
      resolve();
    };
    conn.socket.on('data', look);
    look();
  });

t.test('close ends the connections no request is on, and answers the one in flight', { timeout: 60_000 }, async (t) => {
  const e = await emulator(t);
  const host = new URL(e.url).host;

  const preconnect = await connect(e.url);
  const stalled = await connect(e.url);
  stalled.socket.write(`GET /v1/me HTTP/1.1\r\nHost: ${host}\r\n`); // the head's end never comes

  const stream = await connect(e.url);
  stream.socket.write(`GET /_payemu/events/stream?key=sk_test_payemu_acme HTTP/1.1\r\nHost: ${host}\r\nAccept: text/event-stream\r\n\r\n`);
  await until(stream, (text) => text.includes(': payemu event stream'));

  const idle = await connect(e.url);
  idle.socket.write(`GET /_payemu/health HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
  await until(idle, (text) => /\r\n\r\n[\s\S]*\}/.test(text));

  // Its headers are in, its body not yet: in flight when the close begins.
  const body = JSON.stringify({ amount: 12.5 });
  const pending = await connect(e.url);
  pending.socket.write(
    `POST /v1/sessions HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer sk_test_payemu_acme\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
  );
  // Once a later request is answered, the server has read this one's headers too.
  t.equal((await e.anon.get('/_payemu/health')).status, 200);

  const closing = e.close();
  await Promise.all([preconnect.closed, stalled.closed, idle.closed]);
  t.pass('the preconnected, the stalled and the idle connections are closed');
  t.equal(stalled.read.text, '', 'the stalled request is not answered');
  await stream.closed;
  t.match(stream.read.text, /0\r\n\r\n$/, 'the event stream ended, as a stream ends');

  pending.socket.write(body);
  await pending.closed;
  t.match(pending.read.text, /^HTTP\/1\.1 201 Created\r\n/, 'the request in flight is answered');
  t.match(pending.read.text, /\r\nConnection: close\r\n/i, 'on a connection then closed');
  await closing;
  t.pass('close resolves');
});
