import { int, VALID, type Add } from './cases.js';

/** Raw HTTP that no client library sends. */
export function rawCases(add: Add): void {
  // 8. Raw HTTP no client library sends: the parser refuses it, and the refusal is an envelope.
  const host = 'Host: 127.0.0.1\r\n';
  const rawRequests = [
    `GET /v1/me\u0000 HTTP/1.1\r\n${host}\r\n`,
    `GET /v1/payments/é HTTP/1.1\r\n${host}Authorization: Bearer ${VALID}\r\n\r\n`,
    `GET /v1/pay ments HTTP/1.1\r\n${host}\r\n`,
    `GET /v1/me HTTP/1.1\r\n${host}X-API-Key: abc\u0000def\r\n\r\n`,
    `GET /v1/me HTTP/1.1\r\n${host}Bad Header: x\r\n\r\n`,
    `GET /v1/me HTTP/1.1\r\n${host}X-A: a\r\n b\r\n\r\n`,
    `GET /v1/me HTTP/1.1\r\n${host}X-A: a\rb\r\n\r\n`,
    `get /v1/me HTTP/1.1\r\n${host}\r\n`,
    `FOO /v1/me HTTP/1.1\r\n${host}\r\n`,
    `GET /v1/me HTTP/2.0\r\n${host}\r\n`,
    `GET /v1/me HTTP/1.1\r\n${host}Authorization: Bearer ${VALID}x\r\n${'X-Pad: '.concat('p'.repeat(8000), '\r\n').repeat(3)}\r\n`,
    `GET /${'a'.repeat(20_000)} HTTP/1.1\r\n${host}\r\n`,
    `GET http://127.0.0.1/v1/me HTTP/1.1\r\n${host}Authorization: Bearer ${VALID}\r\n\r\n`,
    `OPTIONS * HTTP/1.1\r\n${host}\r\n`,
    `POST /v1/sessions HTTP/1.1\r\n${host}Authorization: Bearer ${VALID}\r\nContent-Type: application/json\r\nContent-Length: -1\r\n\r\n{}`,
    `POST /v1/sessions HTTP/1.1\r\n${host}Authorization: Bearer ${VALID}\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}`,
    `POST /v1/sessions HTTP/1.1\r\n${host}Authorization: Bearer ${VALID}\r\nContent-Type: application/json\r\nContent-Length: 99999999999999999999999\r\n\r\n{}`,
    `POST /v1/sessions HTTP/1.1\r\n${host}Authorization: Bearer ${VALID}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{} `,
    `POST /v1/sessions HTTP/1.1\r\n${host}Authorization: Bearer ${VALID}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    `POST /v1/sessions HTTP/1.1\r\n${host}Authorization: Bearer ${VALID}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    `POST /v1/sessions HTTP/1.1\r\n${host}Authorization: Bearer ${VALID}\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip\r\n\r\n{}`,
    `POST /v1/sessions HTTP/1.1\r\n${host}Authorization: Bearer ${VALID}\r\nContent-Type: application/json\r\nContent-Length: 14\r\n\r\n{"amount": 10`,
    `PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`,
    `GET\r\n\r\n`,
    `GET /v1/me HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n`,
    `CONNECT 127.0.0.1:1 HTTP/1.1\r\n${host}\r\n`,
    `GET /v1/me HTTP/1.1\r\n${host}Connection: Upgrade\r\nUpgrade: websocket\r\n\r\n`,
    `GET /v1/me HTTP/1.1\r\nAuthorization: Bearer wrong\r\n\r\n`,
  ];
  for (const text of rawRequests) add({ name: `raw: ${JSON.stringify(text.slice(0, 70))}`, method: 'RAW', target: '', raw: Buffer.from(text, 'utf8') });
  for (let i = 0; i < 30; i++) {
    const bytes = Buffer.from(Array.from({ length: 1 + int(300) }, () => int(256)));
    add({ name: `raw: random bytes ${i}`, method: 'RAW', target: '', raw: Buffer.concat([bytes, Buffer.from('\r\n\r\n')]) });
  }
}
