import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import t from 'tap';
import { ROUTES } from '../src/catalogue.js';
import type { ApiRoute } from '../src/http/route.js';
import { emulator, pay } from './helpers/emulator.js';
import { prng } from './helpers/prng.js';

/**
 * Thousands of generated bad requests against every key-authenticated route (the /v1 API and
 * the control plane): broken, deeply nested and oversized JSON, wrong types, `__proto__` and
 * `constructor` keys, odd paths and methods, bad keys, unicode, wrong content types, and raw
 * HTTP that no client library would send. Each is invalid for a known reason, so each must get
 * a 4xx in SPEC.md's envelope: never a 5xx, never a dropped connection, never a crash. The
 * emulator is file-backed; its files and what the API shows must be the same afterwards.
 *
 * Requests go over raw sockets (one connection each, `Connection: close`), so paths, headers
 * and bodies are sent byte for byte. Everything is generated from a fixed seed: a failure names
 * its case, and the same run reproduces it.
 */

// ---- deterministic generation ----------------------------------------------------------------

const random = prng(0x5eed);
const int = (n: number) => Math.floor(random() * n);
const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;

/** Strings that have broken parsers before: empty, NUL, numbers in disguise, RTL, surrogates. */
const NASTY = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'null',
  'undefined',
  'NaN',
  '-NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-0',
  '0x1F',
  '１２３',
  '١٢٣',
  'é',
  'ü✓',
  '𝄞',
  '🙂🙂',
  '👨‍👩‍👧',
  '\u202egnp.exe',
  '\u200b',
  '\ufeff',
  '\ud800',
  '\udfff',
  'שלום',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '../../etc/passwd',
  '%00',
  '%',
  '%zz',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '\r\n',
  '\t',
  '\\',
  '"',
  '{}',
  '[]',
  'x'.repeat(3000),
];
const PROTO_WORDS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

/** Values of every JSON type; `wrongFor` picks one whose type a schema does not allow. */
const SAMPLES: Record<string, unknown[]> = {
  null: [null],
  boolean: [true, false],
  number: [0, -1, 1.5, 1e308, -1e308, 0.001, 123456789012],
  string: ['', 'x', 'NaN', '10', '1e3', '𝄞', 'x'.repeat(600)],
  array: [[], [1], ['a', null], [{}]],
  object: [{}, { a: 1 }, { constructor: { prototype: { polluted: true } } }],
};
function wrongFor(schema: { type?: string | string[] }): unknown {
  const allowed = new Set([schema.type].flat());
  if (allowed.has('integer')) allowed.add('number'); // (0 and -1 are integers)
  const types = Object.keys(SAMPLES).filter((type) => !allowed.has(type));
  return pick(SAMPLES[pick(types)]!);
}

/** Percent-encodes every byte that is not unreserved (a lone surrogate becomes U+FFFD's bytes). */
const pct = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');

/** Path segments that name nothing: encoded nasties, malformed escapes, traversal, huge. */
function oddSegment(): string {
  switch (int(6)) {
    case 0:
      return pct(pick(NASTY.filter((s) => s !== ''))) || 'x';
    case 1:
      return pick(['%', '%zz', '%E2%82', '%C0%AF', '%2F', '%2e%2e', '..', '.', '%00', '%FF%FE', '~', '%25', '%u0041']);
    case 2:
      return pick(PROTO_WORDS);
    case 3:
      return `cs_${'A'.repeat(24)}`;
    case 4:
      return pct(`pay_${String.fromCodePoint(...Array.from({ length: 1 + int(8) }, () => 0x20 + int(0x2fff)))}`);
    default:
      return 'z'.repeat(1 + int(4000));
  }
}

/** Whether every percent-escape of a request target decodes to UTF-8 text (a lone `%` is literal). */
function wellFormedTarget(target: string): boolean {
  try {
    for (const part of target.split(/[?&=]/)) decodeURIComponent(part.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
    return true;
  } catch {
    return false;
  }
}

// ---- requests over raw sockets ---------------------------------------------------------------

interface Case {
  /** Group and short description; names the case in a failure. */
  name: string;
  method: string;
  /** Request target, sent as is (encode it yourself). */
  target: string;
  headers?: [string, string][];
  body?: string | Buffer;
  /** Bytes sent instead of a request built from the fields above. */
  raw?: Buffer;
  /** Expected status(es); any 4xx when absent. */
  expect?: number | number[];
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const VALID = 'sk_test_payemu_acme';
const auth = (key = VALID): [string, string] => ['Authorization', `Bearer ${key}`];
const JSON_TYPE: [string, string] = ['Content-Type', 'application/json'];

function encode(c: Case, host: string): Buffer {
  if (c.raw) return c.raw;
  const headers = c.headers ?? [];
  const lines = [`${c.method} ${c.target} HTTP/1.1`, `Host: ${host}`, 'Connection: close', ...headers.map(([k, v]) => `${k}: ${v}`)];
  const body = c.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(c.body) ? c.body : Buffer.from(c.body, 'utf8');
  const framed = headers.some(([k]) => /^(content-length|transfer-encoding)$/i.test(k));
  if (!framed && (body.length > 0 || c.body !== undefined)) lines.push(`Content-Length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8'), body]);
}

/**
 * Sends bytes on a new connection and reads until the server closes it. Raw cases also end
 * their side, so a request cut short meets the end of the stream rather than a server waiting
 * for the rest.
 */
function exchange(port: number, bytes: Buffer, end: boolean): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => (end ? socket.end(bytes) : socket.write(bytes)));
    // A guard, not a wait: a request the server neither answers nor closes fails the case.
    socket.setTimeout(15_000, () => socket.destroy(new Error('no answer within 15 s')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks)));
    socket.on('close', () => resolve(Buffer.concat(chunks)));
    // A reset after the answer arrived (the server closed while we were still sending) is fine.
    socket.on('error', (error) => (chunks.length > 0 ? resolve(Buffer.concat(chunks)) : reject(error)));
  });
}

function parse(bytes: Buffer): Answer | undefined {
  const split = bytes.indexOf('\r\n\r\n');
  if (split === -1) return undefined;
  const [statusLine, ...headerLines] = bytes.subarray(0, split).toString('latin1').split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '');
  if (!match) return undefined;
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = bytes.subarray(split + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const parts: Buffer[] = [];
    let at = 0;
    for (;;) {
      const end = body.indexOf('\r\n', at);
      const size = parseInt(body.subarray(at, end).toString('latin1'), 16);
      if (!(size > 0)) break;
      parts.push(body.subarray(end + 2, end + 2 + size));
      at = end + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  }
  return { status: Number(match[1]), headers, body: body.toString('utf8') };
}

/** What is wrong with the answer to `c`, or undefined. */
function judge(c: Case, answer: Answer | undefined): string | undefined {
  if (!answer) return 'no HTTP answer (connection closed)';
  if (answer.status < 400 || answer.status > 499) return `status ${answer.status}`;
  const expected = c.expect === undefined ? undefined : [c.expect].flat();
  if (expected && !expected.includes(answer.status)) return `status ${answer.status}, expected ${expected.join(' or ')}`;
  if (c.method === 'HEAD') return undefined; // no body by definition
  if (!/^application\/json/.test(answer.headers['content-type'] ?? '')) return `content-type ${answer.headers['content-type']}`;
  let json: any;
  try {
    json = JSON.parse(answer.body);
  } catch {
    return 'body is not JSON';
  }
  const error = json?.errors?.[0];
  if (!Array.isArray(json?.errors) || json.errors.length !== 1) return 'no errors array';
  if (error.status !== String(answer.status)) return `errors[0].status ${JSON.stringify(error.status)}`;
  if (typeof error.title !== 'string' || typeof error.detail !== 'string' || error.detail === '') return 'title/detail missing';
  if (answer.status === 422 && error.meta !== undefined && typeof error.meta.errors !== 'object') return 'meta.errors is not a map';
  return undefined;
}

// ---- the routes ------------------------------------------------------------------------------

const API_ROUTES = ROUTES.filter((r): r is ApiRoute => r.auth === 'key');
const STREAM = '/_payemu/events/stream';
const regexOf = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split('/')
      .map((s) => (s.startsWith(':') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')}/?$`,
    'i',
  );
const ALL_PATTERNS = ROUTES.map((r) => ({ method: r.method as string, regex: regexOf(r.path) }));
const allowedAt = (concrete: string) => new Set(ALL_PATTERNS.filter((p) => p.regex.test(concrete)).map((p) => p.method));
const fill = (route: { path: string }, segment = oddSegment()) => route.path.replace(/:[^/]+/g, segment);
const hasParams = (route: { path: string }) => route.path.includes(':');
const bodyRoutes = API_ROUTES.filter((r) => r.method === 'POST' || r.method === 'PATCH');
type Schema = { type?: string; required?: string[]; properties?: Record<string, { type?: string | string[] }> };

// ---- generators: each case is invalid for the reason its name gives ---------------------------

interface Fixture {
  openSession: string;
  paidSession: string;
  paidReference: string;
}

function generate(fx: Fixture): Case[] {
  const cases: Case[] = [];
  // A target whose percent-escapes are not UTF-8 text (an encoded surrogate, a cut-off
  // sequence) is refused before anything else looks at it: 400, whatever the case expected.
  const add = (c: Case) => cases.push(c.expect !== undefined && !wellFormedTarget(c.target) ? { ...c, expect: 400 } : c);

  // 1. A missing, wrong or malformed key on every key route (401; authentication comes first,
  //    so the body, however bad, is never read).
  const badAuth: [string, string][][] = [
    [],
    [['Authorization', 'Bearer sk_test_wrong']],
    [['Authorization', 'Bearer']],
    [['Authorization', 'Basic c2tfdGVzdF9wYXllbXVfYWNtZTo=']],
    [['Authorization', `Bearer ${VALID} extra`]],
    [['Authorization', `Bearer ${VALID.toUpperCase()}`]],
    [['Authorization', 'Bearer sk_test_payemu_acmé']],
    [['Authorization', 'Bearer whsec_payemu_acme']],
    [['Authorization', `Token ${VALID}`]],
    [['Authorization', VALID]],
    [['Authorization', `Bearer ${VALID.repeat(300)}`]],
    [['X-API-Key', '']],
    [['X-API-Key', `${VALID}_`]],
    [['X-API-Key', 'sk_test_payemu_acme\u202e']],
    ...PROTO_WORDS.map((word): [string, string][] => [['Authorization', `Bearer ${word}`]]),
  ];
  for (const route of API_ROUTES) {
    for (const headers of badAuth) {
      const withBody = route.method === 'POST' || route.method === 'PATCH';
      add({
        name: `auth: ${route.method} ${route.path} with ${JSON.stringify(headers)}`,
        method: route.method,
        target: fill(route) + (route.keyInQuery ? pick(['?key=wrong', '?key=', `?key=${VALID}x`, '']) : ''),
        headers: withBody ? [...headers, pick([JSON_TYPE, ['Content-Type', 'text/plain'] as [string, string]])] : headers,
        body: withBody ? pick(['{"amount": 10}', '{', 'x'.repeat(2000), '{"__proto__": {"polluted": true}}']) : undefined,
        expect: 401,
      });
    }
  }

  // 2. Methods a path does not have (405), with and without a key.
  const paths = new Set(API_ROUTES.map((r) => r.path));
  for (const pattern of paths) {
    for (let i = 0; i < 3; i++) {
      const concrete = fill({ path: pattern });
      const allowed = allowedAt(concrete);
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'HEAD']) {
        if (allowed.has(method) || (method === 'HEAD' && allowed.has('GET'))) continue;
        add({
          name: `method: ${method} ${pattern}`,
          method,
          target: concrete,
          headers: i === 0 ? [] : [auth(), JSON_TYPE],
          body: method === 'GET' || method === 'HEAD' ? undefined : '{}',
          expect: 405,
        });
      }
    }
  }

  // 3. Paths no route has (404), with every method and a valid key.
  const unknownPaths = [
    '/',
    '/v1',
    '/v1/',
    '/v2/sessions',
    '/v1/sessionz',
    '/V1/sessions',
    '/v1//sessions',
    '//v1/sessions',
    '/v1/sessions/a/b/c',
    '/v1/%73essions',
    '/v1/sessions%2F',
    '/v1/../v1/me',
    '/v1/./me',
    '/v1/me/',
    '/v1/me/x',
    '/_payemu',
    '/_payemu/',
    '/_payemu/nope',
    '/_payemu/sessions',
    '/_payemu/clock/advance/now',
    '/__proto__',
    '/constructor',
    '/prototype',
    '/v1/__proto__',
    '/v1/constructor/prototype',
    '/.env',
    '/.git/config',
    '/%',
    '/%zz',
    '/%00',
    '/%E2%80%AE',
    '/favicon.ico',
    '/v1/payments/x/y/z',
    '/v1/chargez',
    '/v1/tax',
    '/v1/invoice',
    '/v1/payment_links',
    '/v1/me.json',
    '/v1/sessions.php',
    `/${'a/'.repeat(500)}`,
    `/v1/${'%F0%9F%99%82'.repeat(200)}`,
  ];
  for (const target of unknownPaths) {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      const allowed = allowedAt(target.replace(/\?.*/, ''));
      if (allowed.size > 0) continue; // a real route after all (its own cases cover it)
      add({
        name: `path: ${method} ${target.slice(0, 80)}`,
        method,
        target,
        headers: [auth(), JSON_TYPE],
        body: method === 'GET' ? undefined : '{"amount": 10}',
        expect: 404,
      });
    }
  }
  for (let i = 0; i < 150; i++) {
    const target = `/${Array.from({ length: 1 + int(4) }, oddSegment).join('/')}`;
    if (allowedAt(target).size > 0) continue;
    add({ name: `path: random ${target.slice(0, 80)}`, method: pick(['GET', 'POST', 'DELETE']), target, headers: [auth()], expect: 404 });
  }

  // 4. Path parameters that name nothing (404), on every GET and DELETE route that has one.
  for (const route of API_ROUTES.filter((r) => hasParams(r) && (r.method === 'GET' || r.method === 'DELETE'))) {
    for (let i = 0; i < 40; i++) {
      const target = fill(route);
      if (target === STREAM) continue;
      const key = pick([VALID, VALID, 'sk_live_payemu_acme', 'sk_test_payemu_globex']);
      add({ name: `param: ${route.method} ${target.slice(0, 100)}`, method: route.method, target, headers: [auth(key)], expect: 404 });
    }
  }
  // Someone else's records: another Source's key, or the other mode, sees nothing.
  for (const key of ['sk_live_payemu_acme', 'sk_test_payemu_globex', 'sk_live_payemu_globex']) {
    add({ name: `param: session of another scope (${key})`, method: 'GET', target: `/v1/sessions/${fx.openSession}`, headers: [auth(key)], expect: 404 });
    add({
      name: `param: payment of another scope (${key})`,
      method: 'GET',
      target: `/v1/payments/${pct(fx.paidReference)}`,
      headers: [auth(key)],
      expect: 404,
    });
    add({
      name: `semantic: complete a session of another scope (${key})`,
      method: 'POST',
      target: `/_payemu/sessions/${fx.openSession}/complete`,
      headers: [auth(key), JSON_TYPE],
      body: JSON.stringify({ card_number: '4242424242424242' }),
      expect: 404,
    });
  }

  // 5. List queries: bad page, sort, filter and fields (422) on the payment and schedule lists,
  //    and bad event-log queries.
  const badListParams = [
    'page[size]=0',
    'page[size]=101',
    'page[size]=-1',
    'page[size]=1.5',
    'page[size]=abc',
    'page[size]=',
    'page[size]=1e2',
    'page[size]=NaN',
    'page[size]=99999999999999999999',
    'page[size]=%EF%BC%91',
    'page[size]=1&page[size]=2',
    'page[number]=0',
    'page[number]=-5',
    'page[number]=x',
    'page[number]=1e400',
    'page[foo]=1',
    'page=1',
    'sort=foo',
    'sort=-',
    'sort=',
    'sort=amount,bogus',
    'sort=--amount',
    'sort=amount&sort=status',
    'sort=__proto__',
    'sort=constructor',
    'sort=toString',
    'sort=hasOwnProperty',
    'sort=-valueOf',
    'filter[bogus]=1',
    'filter=x',
    'filter[status]=NOPE',
    'filter[status]=PA%C3%8FD',
    'filter[created_after]=not-a-date',
    'filter[created_after]=2026-02-30',
    'filter[created_before]=2026-13-01',
    'filter[created_after]=%00',
    'filter[__proto__]=2026-01-01',
    'filter[constructor]=2026-01-01',
    'filter[toString]=x',
    'filter[hasOwnProperty]=1',
    'fields[payments]=nope',
    'fields[payments]=reference,__proto__',
    'fields[payments]=constructor',
    'fields[other]=reference',
    'fields=reference',
    'filter[status]=PAID&filter[status]=FAILED',
  ];
  const pollution = ['', '&__proto__[polluted]=1', '&constructor[prototype][polluted]=1', '&__proto__.polluted=1', '&%5F%5Fproto%5F%5F=1'];
  for (const list of ['/v1/payments', '/v1/recurring-payments']) {
    if (!API_ROUTES.some((r) => r.method === 'GET' && r.path === list)) continue;
    for (const params of badListParams) {
      // `filter[status]` values are a payment's; on schedules only the list grammar is common.
      if (list !== '/v1/payments' && /filter|fields\[payments\]/.test(params)) continue;
      for (const key of [VALID, 'sk_live_payemu_acme']) {
        add({ name: `query: GET ${list}?${params}`, method: 'GET', target: `${list}?${params}${pick(pollution)}`, headers: [auth(key)], expect: 422 });
      }
    }
  }
  for (const params of [
    'limit=0',
    'limit=1001',
    'limit=abc',
    'limit=-1',
    'limit=1.5',
    'event=payment.nope',
    'event=__proto__',
    'delivery_status=lost',
    'limit=1&limit=2',
  ]) {
    add({ name: `query: GET /_payemu/events?${params}`, method: 'GET', target: `/_payemu/events?${params}`, headers: [auth()], expect: 422 });
  }
  // An include path the resource does not have is a 400 (JSON:API).
  for (const params of ['include=nope', 'include=refunds,nope', 'include=__proto__', 'include=', 'include=refunds&include=refunds']) {
    add({ name: `query: GET payment?${params}`, method: 'GET', target: `/v1/payments/${pct(fx.paidReference)}?${params}`, headers: [auth()], expect: 400 });
  }

  // 6. Bodies that are not JSON objects the route can read, on every POST and PATCH key route:
  //    broken JSON (400), other content types (415), over 1 MiB (413), `__proto__` keys (422),
  //    nesting past the limit (400), the wrong shape for the route's schema (422).
  const brokenJson = [
    '{',
    '}',
    '[',
    '{"amount":',
    '{"amount": 10,}',
    "{'amount': 10}",
    '{amount: 10}',
    'NaN',
    '{"amount": NaN}',
    '{"amount": Infinity}',
    '{"amount": -Infinity}',
    '{"amount": 0x10}',
    '{"amount": 010}',
    '{"amount": 1.}',
    '{"amount": .5}',
    '{"amount": +1}',
    '{"a":1} x',
    '{"a":1}{"a":2}',
    '\ufeff{"amount":10}',
    '{"a":"\u0001"}',
    '{"a":"\\x41"}',
    '{"a":"\\u12"}',
    '[1,2',
    'undefined',
    'nul',
    'tru',
    '"unterminated',
    '{"a" 1}',
    '{"a":1,,"b":2}',
    '[,1]',
    '\u0000',
    '{"amount":10}\u0000',
    '//comment\n{}',
    '/* */{}',
    '{"__proto__":',
    '{"amount": 10, "description": "line\nbreak"}',
    '{"\ud800": 1',
    '{"amount":1e}',
    '{"amount":-}',
    '[}',
    '{]',
    '\\',
    '{"a":true false}',
  ];
  const wrongTypes = [
    'text/plain',
    'text/json',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    'application/javascript',
    'application/jsonx',
    'json',
    'application',
    '*/*',
    'application/json-seq',
    'application/vnd.api+xml',
    'APPLICATION/X-JSON',
    'text/plain; charset=application/json',
    'application/jsön',
    '__proto__',
    'application/json, text/plain',
    'text/html',
  ];
  const nest = (depth: number, open: string, close: string, inner = '1') => `${open.repeat(depth)}${inner}${close.repeat(depth)}`;
  for (const route of bodyRoutes) {
    const target = () => fill(route);
    const post = (name: string, body: string | Buffer, expect: number | number[], headers: [string, string][] = [auth(), JSON_TYPE]) =>
      add({ name: `${name}: ${route.method} ${route.path}`, method: route.method, target: target(), headers, body, expect });

    for (const text of brokenJson) post(`broken JSON ${JSON.stringify(text).slice(0, 40)}`, text, 400);
    for (let i = 0; i < 25; i++) {
      // A valid document cut short or with a stray character: never valid JSON, never blank.
      const whole = JSON.stringify({ amount: 10, reference: pick(NASTY), metadata: { k: pick(NASTY), n: [1, { x: pick(NASTY) }] } });
      const broken =
        i % 2 === 0
          ? whole.slice(0, 1 + int(whole.length - 2))
          : `${whole.slice(0, int(whole.length))}${pick(['"', '{', ']', ',', ':', '\u0000', 'x'])}${whole.slice(int(whole.length))}`;
      if (broken.trim() === '' || isJson(broken)) continue;
      post('broken JSON (generated)', broken, 400);
    }
    // Invalid UTF-8 inside broken JSON.
    post('broken JSON with invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a]), 400);

    for (const type of wrongTypes)
      post(`content type ${type}`, '{"amount": 10, "card_number": "4242424242424242", "by": "1d"}', 415, [auth(), ['Content-Type', type]]);
    post('no content type', '{"amount": 10, "card_number": "4242424242424242", "by": "1d"}', 415, [auth()]);
    post('empty content type', '{"amount": 10}', 415, [auth(), ['Content-Type', '']]);

    for (const words of [['__proto__'], ['a', '__proto__'], ['metadata', '__proto__'], ['a', 'b', 'c', '__proto__']]) {
      // `{"w1": {"w2": ... {"__proto__": {"polluted": true}}}}`, alone and inside a request that
      // would be valid without it: the `__proto__` key alone must refuse it.
      const text = words.reduceRight((inner, key) => `{${JSON.stringify(key)}:${inner}}`, '{"polluted": true}');
      post(`__proto__ at ${words.join('.')}`, text, 422);
      post(`__proto__ at x.${words.join('.')}`, `{"amount": 10, "card_number": "4242424242424242", "by": "1d", "x": ${text}}`, 422);
    }
    post('__proto__ null', '{"__proto__": null, "amount": 10}', 422);
    post('__proto__ in an array', '[{"__proto__": {"polluted": true}}]', 422);
    post(
      '__proto__ written with escapes',
      '{"amount": 10, "card_number": "4242424242424242", "by": "1d", "metadata": {"\\u005f_proto__": {"polluted": true}}}',
      422,
    );
    post(
      '__proto__ key written with escapes at top',
      '{"\\u005F\\u005Fproto\\u005F\\u005F": {"amount": 10}, "amount": 10, "by": "1d", "card_number": "4242424242424242"}',
      422,
    );

    post('nested 65 levels', `{"amount": 10, "card_number": "4242424242424242", "metadata": ${nest(65, '{"a":', '}')}}`, 400);
    post('nested 10,000 arrays', nest(10_000, '[', ']'), 400);
    post('nested 10,000 objects', nest(10_000, '{"a":', '}'), 400);
    post('nested 10,000 in metadata', `{"amount": 10, "card_number": "4242424242424242", "by": "1d", "metadata": ${nest(10_000, '{"a":', '}')}}`, 400);
    post('nested 200,000 arrays', nest(200_000, '[', ']'), 400);
    post('nested 100,000 objects with __proto__ inside', nest(100_000, '{"a":', '}', '{"__proto__": 1}'), 400);
    post('nested 10,000 mixed, broken at the end', `${'[{"a":'.repeat(10_000)}1`, 400);

    // Over 1 MiB: declared, chunked, and a document that would be valid if it were smaller.
    // (A snapshot import takes far more: its own limit, not tried here.)
    if (route.bodyLimit !== undefined) continue;
    const big = (bytes: number) => `{"amount": 10, "card_number": "4242424242424242", "description": "${'x'.repeat(bytes)}"}`;
    post('1 MiB + 1 byte', big(1024 * 1024), 413);
    add({
      name: `chunked over 1 MiB: ${route.method} ${route.path}`,
      method: route.method,
      target: target(),
      headers: [auth(), JSON_TYPE, ['Transfer-Encoding', 'chunked']],
      body: chunked(big(1024 * 1024 + 10)),
      expect: 413,
    });
  }
  // The biggest ones once per kind, on the routes the issue names.
  add({
    name: 'oversized: 3 MiB session',
    method: 'POST',
    target: '/v1/sessions',
    headers: [auth(), JSON_TYPE],
    body: `{"amount": 10, "metadata": {"a": "${'y'.repeat(3 * 1024 * 1024)}"}}`,
    expect: 413,
  });
  add({
    name: 'oversized: 1 MiB of spaces',
    method: 'POST',
    target: '/_payemu/clock/advance',
    headers: [auth(), JSON_TYPE],
    body: `{"by": "1d"${' '.repeat(1024 * 1024)}}`,
    expect: 413,
  });

  // The wrong shape for each route's schema (422): not an object, missing what is required,
  // known fields of the wrong type; with `constructor`/`prototype` keys and unicode around.
  for (const route of bodyRoutes.filter((r) => r.body)) {
    const schema = route.body as Schema;
    const post = (name: string, value: unknown) =>
      add({
        name: `schema ${name}: ${route.method} ${route.path}`,
        method: route.method,
        target: fill(route),
        headers: [auth(), JSON_TYPE],
        body: JSON.stringify(value),
        expect: 422,
      });
    if (schema.type === 'object') {
      for (const value of [[], [{}], 'str', '', 0, 42, -1.5, true, false, [{ amount: 10 }], ['__proto__']]) post(`body ${JSON.stringify(value)}`, value);
    }
    if (schema.required?.length) {
      post('{}', {});
      post('null', null); // no body: the required fields are missing
      for (let i = 0; i < 6; i++) {
        const junk: Record<string, unknown> = { [pick(NASTY)]: pick(NASTY), constructor: { prototype: { polluted: true } }, prototype: { polluted: true } };
        for (const [name, property] of Object.entries(schema.properties ?? {}))
          if (!schema.required.includes(name) && random() < 0.3) junk[name] = wrongFor(property);
        post('missing required', junk);
      }
    }
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (property.type === undefined) continue;
      for (let i = 0; i < 4; i++) post(`${name} of the wrong type`, { [name]: wrongFor(property), constructor: pick([null, 'x', { prototype: {} }]) });
    }
  }

  // 7. Route rules: sessions (422 by field, 409 by reference), completion, clock, refunds.
  const session = (fields: Record<string, unknown>) => ({ amount: 10, ...fields });
  const badSessions: Record<string, unknown>[] = [
    {},
    { currency: 'USD' },
    { amount: null },
    { amount: '10' },
    { amount: 'NaN' },
    { amount: 'Infinity' },
    { amount: true },
    { amount: [] },
    { amount: {} },
    { amount: -1 },
    { amount: 0 },
    { amount: 0.001 },
    { amount: 10.005 },
    { amount: 1_000_000 },
    { amount: 1e300 },
    { amount: -0.01 },
    session({ currency: 'US' }),
    session({ currency: 'ZZZ' }),
    session({ currency: '€€€' }),
    session({ currency: 123 }),
    session({ currency: null }),
    session({ currency: 'usd1' }),
    session({ reference: '' }),
    session({ reference: 'r'.repeat(256) }),
    session({ reference: 7 }),
    session({ reference: ['a'] }),
    session({ reference: { __x: 1 } }),
    session({ description: 'd'.repeat(501) }),
    session({ description: 5 }),
    session({ success_url: 'javascript:alert(1)' }),
    session({ success_url: 'not a url' }),
    session({ success_url: 'data:text/html,hi' }),
    session({ success_url: 'http://' }),
    session({ cancel_url: 'file:///etc/passwd' }),
    session({ cancel_url: 'https://exa mple.com' }),
    session({ cancel_url: 'vbscript:x' }),
    session({ success_url: `https://e.com/${'a'.repeat(2100)}` }),
    session({ customer_email: 'not-an-email' }),
    session({ customer_email: 'a@' }),
    session({ customer_email: '@b.c' }),
    session({ customer_email: 'a b@c.d' }),
    session({ customer_email: 5 }),
    session({ customer_name: 'n'.repeat(256) }),
    session({ metadata: [] }),
    session({ metadata: 'x' }),
    session({ metadata: null }),
    session({ metadata: 5 }),
    session({ capture_method: 'auto' }),
    session({ capture_method: 'MANUAL' }),
    session({ capture_method: '' }),
    session({ save_payment_method: 'true' }),
    session({ apply_tax: 1 }),
    session({ tax: {} }),
    session({ tax: { amount: -1 } }),
    session({ tax: { amount: 1, lines: 'x' } }),
    session({ tax: { amount: 1, lines: [{}] } }),
    session({ tax: { amount: 1, lines: [{ name: 'VAT', amount: 1, rate: 101 }] } }),
    session({ tax: { amount: 1, lines: [{ name: '', amount: 1 }] } }),
    session({ tax: 5 }),
    session({ subtotal: -1 }),
    session({ discount: '5' }),
    session({ shipping: 1.001 }),
    session({ subtotal: 1e12 }),
    session({ amount: 10, metadata: { constructor: { prototype: { polluted: true } } }, currency: 'XX' }),
    { amount: '10', constructor: { prototype: { polluted: true } }, prototype: { polluted: true } },
  ];
  for (const body of badSessions) {
    for (const key of [VALID, 'sk_live_payemu_acme', 'sk_test_payemu_globex']) {
      add({
        name: `semantic: POST /v1/sessions ${JSON.stringify(body).slice(0, 80)}`,
        method: 'POST',
        target: '/v1/sessions',
        headers: [auth(key), JSON_TYPE],
        body: JSON.stringify(body),
        expect: 422,
      });
    }
  }
  // Unicode in every string field, each request still broken by a bad amount.
  for (let i = 0; i < 120; i++) {
    const body = {
      amount: pick(['1.001', -5, 0, null, '𝄞', 1e9]),
      reference: pick(NASTY) || 'r',
      description: pick(NASTY),
      customer_name: pick(NASTY),
      metadata: { [pick(NASTY)]: pick(NASTY) },
    };
    add({
      name: `semantic: unicode session ${i}`,
      method: 'POST',
      target: '/v1/sessions',
      headers: [auth(), JSON_TYPE],
      body: JSON.stringify(body),
      expect: 422,
    });
  }
  // Huge and odd numbers written as JSON text.
  for (const amount of ['1e400', '-1e400', '123456789012345678901234567890', '-0', '1e-400', '0.0000000000000000001', '99999999999999999999.99', '1E2000']) {
    add({
      name: `semantic: amount ${amount}`,
      method: 'POST',
      target: '/v1/sessions',
      headers: [auth(), JSON_TYPE],
      body: `{"amount": ${amount}, "reference": "huge-${amount}"}`,
      expect: 422,
    });
  }
  // A paid reference is taken (409), for this Source and for another one of the merchant.
  for (const key of [VALID, 'sk_test_payemu_globex']) {
    add({
      name: `semantic: session for a paid reference (${key})`,
      method: 'POST',
      target: '/v1/sessions',
      headers: [auth(key), JSON_TYPE],
      body: JSON.stringify({ amount: 5, reference: fx.paidReference }),
      expect: 409,
    });
  }
  // An Idempotency-Key that is no key (400) on an otherwise valid request.
  for (const value of ['', 'k'.repeat(256)]) {
    add({
      name: `semantic: Idempotency-Key of ${value.length} characters`,
      method: 'POST',
      target: '/v1/sessions',
      headers: [auth(), JSON_TYPE, ['Idempotency-Key', value]],
      body: '{"amount": 10}',
      expect: 400,
    });
  }

  const completeBodies: unknown[] = [
    {},
    { card_number: '' },
    { card_number: '4242' },
    { card_number: '4242 4242 4242 424x' },
    { card_number: '4'.repeat(41) },
    { card_number: 4242424242424242 },
    { card_number: null },
    { card_number: ['4242424242424242'] },
    { card_number: '４２４２４２４２４２４２４２４２' },
    { card_number: '4242424242424242\u0000' },
    { card_number: '4242424242424242', three_ds: 'maybe' },
    { card_number: '4242424242424242', three_ds: true },
    { card_number: '<script>' },
    { cardNumber: '4242424242424242' },
  ];
  for (const body of completeBodies) {
    for (const id of [fx.openSession, `cs_${'Z'.repeat(24)}`, oddSegment()]) {
      add({
        name: `semantic: complete ${JSON.stringify(body)}`,
        method: 'POST',
        target: `/_payemu/sessions/${id}/complete`,
        headers: [auth(), JSON_TYPE],
        body: JSON.stringify(body),
        expect: 422,
      });
    }
  }
  for (const card of ['4242424242424242', '4000000000000002', '4000002760003184']) {
    add({
      name: `semantic: complete an unknown session with ${card}`,
      method: 'POST',
      target: `/_payemu/sessions/cs_${'Q'.repeat(24)}/complete`,
      headers: [auth(), JSON_TYPE],
      body: JSON.stringify({ card_number: card }),
      expect: 404,
    });
  }
  add({
    name: 'semantic: complete a complete session',
    method: 'POST',
    target: `/_payemu/sessions/${fx.paidSession}/complete`,
    headers: [auth(), JSON_TYPE],
    body: '{"card_number": "4242424242424242"}',
    expect: 409,
  });
  add({
    name: 'semantic: 3-D Secure card without three_ds',
    method: 'POST',
    target: `/_payemu/sessions/${fx.openSession}/complete`,
    headers: [auth(), JSON_TYPE],
    body: '{"card_number": "4000 0027 6000 3184"}',
    expect: 422,
  });

  const clockBodies = [
    '{}',
    '{"by": "-1d"}',
    '{"by": -5}',
    '{"by": "1y"}',
    '{"by": "101y"}',
    '{"by": 1e20}',
    '{"by": 1e400}',
    '{"by": "NaN"}',
    '{"by": "0x10"}',
    '{"by": true}',
    '{"by": null}',
    '{"by": []}',
    '{"by": {}}',
    '{"by": "１d"}',
    '{"by": "1d\\u0000"}',
    '{"by": "d"}',
    '{"by": ""}',
    '{"by": "1dd"}',
    '{"by": "Infinity"}',
    '{"by": "36501d"}',
    '{"to": "2000-01-01T00:00:00Z"}',
    '{"to": "garbage"}',
    '{"to": 123}',
    '{"to": "2026-02-30"}',
    '{"to": ""}',
    '{"by": "1d", "to": "2099-01-01"}',
    '{"by": "1d", "__proto__": {}}',
    '{"to": "9999-99-99T99:99:99Z"}',
    '{"to": "+275760-09-14T00:00:00Z"}',
    '[{"by": "1d"}]',
    '"1d"',
    '86400',
    'null',
  ];
  for (const body of clockBodies) {
    add({ name: `semantic: clock advance ${body}`, method: 'POST', target: '/_payemu/clock/advance', headers: [auth(), JSON_TYPE], body, expect: 422 });
  }

  // Money movement on the paid payment: not allowed by the rules (422), or nothing there (404).
  const refund = API_ROUTES.some((r) => r.method === 'POST' && r.path === '/v1/payments/:reference/refunds');
  if (refund) {
    for (const body of [
      '{"amount": 1000000}',
      '{"amount": 0}',
      '{"amount": -1}',
      '{"amount": "1"}',
      '{"amount": 0.001}',
      '{}',
      '{"amount": 1e400}',
      '{"amount": 50.01}',
    ]) {
      add({
        name: `semantic: refund ${body}`,
        method: 'POST',
        target: `/v1/payments/${pct(fx.paidReference)}/refunds`,
        headers: [auth(), JSON_TYPE],
        body,
        expect: 422,
      });
    }
  }
  for (const action of ['capture', 'void']) {
    if (!API_ROUTES.some((r) => r.path === `/v1/payments/:reference/${action}`)) continue;
    add({
      name: `semantic: ${action} a PAID payment`,
      method: 'POST',
      target: `/v1/payments/${pct(fx.paidReference)}/${action}`,
      headers: [auth(), JSON_TYPE],
      body: '{}',
      expect: 422,
    });
    add({
      name: `semantic: ${action} nothing`,
      method: 'POST',
      target: `/v1/payments/nothing-here/${action}`,
      headers: [auth(), JSON_TYPE],
      body: '{}',
      expect: 404,
    });
  }

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
  return cases;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function chunked(text: string): Buffer {
  const body = Buffer.from(text);
  const parts: Buffer[] = [];
  for (let at = 0; at < body.length; at += 64 * 1024) {
    const chunk = body.subarray(at, at + 64 * 1024);
    parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

// ---- the run ---------------------------------------------------------------------------------

/** The data directory's files (the lock aside), as digests. */
function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dir).sort()) {
    if (name === 'payemu.lock') continue;
    out[name] = createHash('sha256')
      .update(fs.readFileSync(path.join(dir, name)))
      .digest('hex');
  }
  return out;
}

const prototypes = () => ({
  object: Object.getOwnPropertyNames(Object.prototype).sort(),
  array: Object.getOwnPropertyNames(Array.prototype).sort(),
  func: Object.getOwnPropertyNames(Function.prototype).sort(),
  string: Object.getOwnPropertyNames(String.prototype).sort(),
});

t.test('thousands of bad requests: each a 4xx in the envelope; nothing stored, nothing polluted, still serving', async (t) => {
  const dataDir = path.join(t.testdir(), 'data');
  // A frozen clock: nothing falls due during the run, so nothing may be written at all.
  const e = await emulator(t, { inMemory: false, dataDir, freezeClock: true, clockStart: '2026-11-21T10:00:00Z' });
  const serverErrors: string[] = [];
  e.bus.on('server.error', (error) => serverErrors.push(`${error.method} ${error.path}: ${error.error}`));

  // Some state to keep: an open session, a paid one, a declined one, in two Sources and modes.
  const open = await e.api.post('/v1/sessions', { amount: 12.34, reference: 'hostile-open', metadata: { keep: 'me' } });
  const paid = await pay(e, { amount: 50, reference: 'hostile-paid-ü✓' });
  await pay(e, { amount: 7, reference: 'hostile-failed' }, '4000000000000002');
  await pay(e, { amount: 9, reference: 'hostile-globex' }, '4242424242424242', e.globex);
  await e.live.post('/v1/sessions', { amount: 3, reference: 'hostile-live' });
  t.equal(open.status, 201);
  t.equal(paid.completed.status, 200);
  const fx: Fixture = { openSession: open.body.data.id, paidSession: paid.session.body.data.id, paidReference: 'hostile-paid-ü✓' };

  const visible = async () => ({
    payments: (await e.api.get('/v1/payments?page[size]=100')).text,
    live: (await e.live.get('/v1/payments?page[size]=100')).text,
    globex: (await e.globex.get('/v1/payments?page[size]=100')).text,
    open: (await e.api.get(`/v1/sessions/${fx.openSession}`)).text,
    paid: (await e.api.get(`/v1/payments/${encodeURIComponent(fx.paidReference)}`)).text,
    // (offset_seconds of a frozen clock follows real time; where it stands does not move.)
    clock: (({ now, frozen }) => ({ now, frozen }))((await e.api.get('/_payemu/clock')).body),
  });
  const filesBefore = filesOf(dataDir);
  const visibleBefore = await visible();
  const prototypesBefore = prototypes();
  t.ok(
    Object.keys(filesBefore).some((name) => name.startsWith('journal-')),
    `the store is on disk: ${Object.keys(filesBefore).join(' ')}`,
  );

  // PAYEMU_HOSTILE_REPEAT=4 sends four generations (another pattern each): the long run that
  // docs/reliability.md reports.
  const cases = Array.from({ length: Number(process.env.PAYEMU_HOSTILE_REPEAT ?? 1) }, () => generate(fx)).flat();
  const counts: Record<string, number> = {};
  for (const c of cases) counts[c.name.split(':')[0]!] = (counts[c.name.split(':')[0]!] ?? 0) + 1;
  t.ok(cases.length >= 3000, `${cases.length} cases: ${JSON.stringify(counts)}`);

  const port = Number(new URL(e.url).port);
  const host = new URL(e.url).host;
  const failures: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++]!;
      let answer: Answer | undefined;
      try {
        answer = parse(await exchange(port, encode(c, host), c.raw !== undefined));
      } catch (error) {
        failures.push(`${c.name} -> ${(error as Error).message}`);
        continue;
      }
      const problem = judge(c, answer);
      if (problem) failures.push(`${c.name} -> ${problem}: ${answer?.body.slice(0, 160) ?? ''}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));

  t.same(failures.slice(0, 40), [], `every answer is a 4xx in the envelope (${failures.length} failures)`);
  t.same(serverErrors.slice(0, 20), [], 'no request failed inside payemu');
  t.same(filesOf(dataDir), filesBefore, 'the data directory is byte for byte the same');
  t.same(await visible(), visibleBefore, 'the API shows the same payments, session and clock');
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype was not polluted');
  t.same(prototypes(), prototypesBefore, 'no prototype gained a property');
  t.equal((await e.api.get('/v1/me')).status, 200, 'and it still serves');
});

t.test('constructor and prototype keys in an accepted body are stored as plain data', async (t) => {
  // Unknown fields are ignored and metadata is free-form (DESIGN.md 4b), so this is a valid
  // request: it must create the session and pollute nothing, now or after a restart.
  const dataDir = path.join(t.testdir(), 'data');
  const e = await emulator(t, { inMemory: false, dataDir });
  const metadata = { constructor: { prototype: { polluted: true } }, prototype: { polluted: true }, toString: 'x', 'ü✓\u202e': '\u0000' };
  const created = await e.api.post('/v1/sessions', { amount: 1, constructor: { prototype: { polluted: true } }, metadata });
  t.equal(created.status, 201);
  const read = await e.api.get(`/v1/sessions/${created.body.data.id}`);
  t.same(read.body.data.attributes.metadata, metadata);
  t.equal(({} as Record<string, unknown>).polluted, undefined);
  await e.close();
  const again = await emulator(t, { inMemory: false, dataDir });
  t.same((await again.api.get(`/v1/sessions/${created.body.data.id}`)).body.data.attributes.metadata, metadata, 'the same after a restart');
  t.equal(({} as Record<string, unknown>).polluted, undefined);
});
