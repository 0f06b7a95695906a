import { ROUTES } from '../../src/catalogue.js';
import type { ApiRoute } from '../../src/http/route.js';
import { prng } from '../helpers/prng.js';

// What the generators of the hostile run share (test/hostile.test.ts runs them): one seeded
// generator, whose draws follow the generators' order, the nasty values, the routes and the fixture.

// ---- deterministic generation ----------------------------------------------------------------

export const random = prng(0x5eed);
export const int = (n: number) => Math.floor(random() * n);
export const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;

/** Strings that have broken parsers before: empty, NUL, numbers in disguise, RTL, surrogates. */
export const NASTY = [
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
export const PROTO_WORDS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

/** Values of every JSON type; `wrongFor` picks one whose type a schema does not allow. */
export const SAMPLES: Record<string, unknown[]> = {
  null: [null],
  boolean: [true, false],
  number: [0, -1, 1.5, 1e308, -1e308, 0.001, 123456789012],
  string: ['', 'x', 'NaN', '10', '1e3', '𝄞', 'x'.repeat(600)],
  array: [[], [1], ['a', null], [{}]],
  object: [{}, { a: 1 }, { constructor: { prototype: { polluted: true } } }],
};
export function wrongFor(schema: { type?: string | string[] }): unknown {
  const allowed = new Set([schema.type].flat());
  if (allowed.has('integer')) allowed.add('number'); // (0 and -1 are integers)
  const types = Object.keys(SAMPLES).filter((type) => !allowed.has(type));
  return pick(SAMPLES[pick(types)]!);
}

/** Percent-encodes every byte that is not unreserved (a lone surrogate becomes U+FFFD's bytes). */
export const pct = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');

/** Path segments that name nothing: encoded nasties, malformed escapes, traversal, huge. */
export function oddSegment(): string {
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
export function wellFormedTarget(target: string): boolean {
  try {
    for (const part of target.split(/[?&=]/)) decodeURIComponent(part.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
    return true;
  } catch {
    return false;
  }
}

// ---- requests over raw sockets ---------------------------------------------------------------

export interface Case {
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

export const VALID = 'sk_test_payemu_acme';
export const auth = (key = VALID): [string, string] => ['Authorization', `Bearer ${key}`];
export const JSON_TYPE: [string, string] = ['Content-Type', 'application/json'];

// ---- the routes ------------------------------------------------------------------------------

export const API_ROUTES = ROUTES.filter((r): r is ApiRoute => r.auth === 'key');
export const STREAM = '/_payemu/events/stream';
export const regexOf = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split('/')
      .map((s) => (s.startsWith(':') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')}/?$`,
    'i',
  );
export const ALL_PATTERNS = ROUTES.map((r) => ({ method: r.method as string, regex: regexOf(r.path) }));
export const allowedAt = (concrete: string) => new Set(ALL_PATTERNS.filter((p) => p.regex.test(concrete)).map((p) => p.method));
export const fill = (route: { path: string }, segment = oddSegment()) => route.path.replace(/:[^/]+/g, segment);
export const hasParams = (route: { path: string }) => route.path.includes(':');
export const bodyRoutes = API_ROUTES.filter((r) => r.method === 'POST' || r.method === 'PATCH');
export type Schema = { type?: string; required?: string[]; properties?: Record<string, { type?: string | string[] }> };

// ---- generators: each case is invalid for the reason its name gives ---------------------------

export interface Fixture {
  openSession: string;
  paidSession: string;
  paidReference: string;
}

/** How a generator hands over a case (the runner keeps them in order). */
export type Add = (c: Case) => void;

export function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export function chunked(text: string): Buffer {
  const body = Buffer.from(text);
  const parts: Buffer[] = [];
  for (let at = 0; at < body.length; at += 64 * 1024) {
    const chunk = body.subarray(at, at + 64 * 1024);
    parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}
