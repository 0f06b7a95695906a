import { BadRequest, Unprocessable } from './errors.js';

/**
 * Every string payemu reads must be well-formed Unicode. A lone UTF-16 surrogate (`"\ud800"`
 * written in JSON, `%ED%A0%80` in a URL) cannot be encoded as UTF-8 or in a URL, so a record
 * holding one would make every later read that encodes it fail. It is refused where requests
 * are parsed: a 400 in the path or query, a 422 naming the field in a JSON body.
 */

/** A `%` not followed by two hex digits is a literal `%` (as Node's querystring reads it). */
const LONE_PERCENT = /%(?![0-9A-Fa-f]{2})/g;

/**
 * Throws a 400 when the request target's path or query holds percent-escapes that do not decode
 * to well-formed UTF-8 (an encoded surrogate, a truncated sequence), or raw characters that are
 * not text. Cheap for the common case: a target without `%` or non-ASCII is not looked at.
 */
export function checkRequestTarget(url: string): void {
  if (!needsCheck(url)) return;
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (!decodes(path)) throw new BadRequest('The request path is not well-formed: its percent-escapes must encode UTF-8 text.');
  if (q === -1) return;
  for (const pair of url.slice(q + 1).split('&')) {
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    if (!decodes(name)) throw new BadRequest('The query string is not well-formed: a parameter name is not UTF-8 text.');
    if (eq !== -1 && !decodes(pair.slice(eq + 1))) {
      throw new BadRequest(`The query string is not well-formed: the value of ${safeName(name)} is not UTF-8 text.`);
    }
  }
}

/**
 * Throws a 422 naming the first field (as a dot path) whose name or value is not well-formed
 * Unicode. JSON can only carry a lone surrogate as a `\u` escape, so callers skip documents
 * whose text has no backslash-u at all.
 */
export function checkJsonText(value: unknown, path = ''): void {
  if (typeof value === 'string') {
    if (!value.isWellFormed()) throw notText(path || 'body');
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) checkJsonText(value[i], path ? `${path}.${i}` : String(i));
    return;
  }
  for (const key of Object.keys(value)) {
    const field = path ? `${path}.${key}` : key;
    if (!key.isWellFormed()) throw notText(field);
    checkJsonText((value as Record<string, unknown>)[key], field);
  }
}

function notText(field: string): Unprocessable {
  const name = field.toWellFormed();
  return Unprocessable.field(name, `The ${name} field must be well-formed Unicode text: it holds a lone surrogate (an unpaired \\ud800-\\udfff escape).`);
}

function needsCheck(url: string): boolean {
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x25 || c > 0x7e) return true;
  }
  return false;
}

function decodes(part: string): boolean {
  try {
    // Node hands over raw bytes of the request line as latin1 characters: re-read them as
    // UTF-8 so a raw, unescaped byte sequence is judged like its escaped form.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the range starts at NUL on purpose: any character outside ASCII.
    const escaped = /[^\x00-\x7e]/.test(part) ? escapeRaw(part) : part;
    decodeURIComponent(escaped.replace(LONE_PERCENT, '%25'));
    return true;
  } catch {
    return false;
  }
}

function escapeRaw(part: string): string {
  let out = '';
  for (let i = 0; i < part.length; i++) {
    const c = part.charCodeAt(i);
    out += c > 0x7e ? `%${(c & 0xff).toString(16).padStart(2, '0')}` : part[i];
  }
  return out;
}

function safeName(name: string): string {
  try {
    return `"${decodeURIComponent(name.replace(LONE_PERCENT, '%25').replace(/\+/g, ' '))}"`;
  } catch {
    return 'a parameter';
  }
}
