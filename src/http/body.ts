import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { type BodyCapture, captureOf } from './body-capture.js';
import { BadRequest, PayloadTooLarge, Unprocessable, UnsupportedMediaType } from './errors.js';
import { checkJsonText } from './text.js';
import { noteWrittenNumbers } from '../lib/written-numbers.js';
import { nestedDeeperThan } from './json-depth.js';

export const BODY_LIMIT = 1024 * 1024;

/**
 * Nesting deeper than any request of the API needs. Deeper documents are refused (400) before
 * they reach code that recurses over them (the `__proto__` check, ajv, JSON.stringify of the
 * journal), where thousands of levels overflow the stack.
 */
export const MAX_DEPTH = 64;

/** Reads the raw body, refusing more than `limit` bytes (413) without buffering the excess. */
export function readRaw(req: IncomingMessage, limit = BODY_LIMIT): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return drainThen(req, new PayloadTooLarge(limit));
  // A request whose connection closed before its body was read has none to give (its 'end' never
  // comes): refused at once rather than waited on for ever.
  if (req.destroyed && !req.readableEnded) return Promise.reject(closedUnread());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        chunks.length = 0;
        reject(new PayloadTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => failed || resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', (error) => failed || reject(new BadRequest(`The request body could not be read: ${error.message}`)));
    req.on('close', () => failed || req.readableEnded || reject(closedUnread()));
  });
}

const closedUnread = () => new BadRequest('The request body could not be read: the connection was closed.');

/**
 * Reads a JSON body. No body (or an empty one) is `undefined`; a body that is not declared as
 * JSON is a 415; bytes that are not UTF-8, JSON that does not parse, or JSON nested more than
 * MAX_DEPTH levels are a 400; `__proto__` keys are refused (422) so no code path can ever copy
 * one onto an object's prototype, and so are strings that are not well-formed Unicode (422
 * naming the field), which no record may hold. Its text is kept for the `money` keyword, which
 * judges amounts as the text writes them, when it may hold a number with more than two decimals.
 */
export async function readJson(req: IncomingMessage, limit = BODY_LIMIT): Promise<unknown> {
  const raw = await readRaw(req, limit);
  if (raw.length === 0) return undefined;
  const type = req.headers['content-type'];
  const json = isJsonType(type);
  // The request journal keeps the body as sent, refused or not (http/request-journal.ts).
  const capture = captureOf(req);
  if (capture) {
    capture.requestRaw = raw;
    capture.requestJson = json;
  }
  if (!json) throw new UnsupportedMediaType(type);
  return parseJsonBody(raw, capture);
}

/**
 * The checks and the parse of readJson over a body read whole (`raw`, declared as JSON):
 * UTF-8, blank, depth, JSON, `__proto__` keys, well-formed text, the written numbers; the text
 * decoded goes to `capture`.
 */
export function parseJsonBody(raw: Buffer, capture?: BodyCapture): unknown {
  if (!isUtf8(raw)) throw new BadRequest('The request body is not valid UTF-8.');
  const text = raw.toString('utf8');
  if (capture) capture.requestText = text;
  // (A body that starts with a visible ASCII character, `{` as a rule, is not blank: no trim.)
  const first = text.charCodeAt(0);
  if ((first <= 0x20 || first >= 0x7f) && text.trim() === '') return undefined;
  if (text.length > MAX_DEPTH && nestedDeeperThan(text, MAX_DEPTH))
    throw new BadRequest(`The request body is nested too deeply: more than ${MAX_DEPTH} levels.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BadRequest(`The request body is not valid JSON: ${(error as Error).message}.`);
  }
  // A key can also spell `__proto__` with escapes (`"\u005f_proto__"`); a lone surrogate can
  // only come as an escape (the bytes are UTF-8).
  const escapes = text.includes('\\u');
  if (escapes || text.includes('__proto__')) rejectProtoKeys(value, '');
  if (escapes) checkJsonText(value);
  // Amounts are judged as the text writes them (`money`, lib/written-numbers.ts).
  noteWrittenNumbers(value, text);
  return value;
}

/** Reads an `application/x-www-form-urlencoded` body (the hosted pages' forms). */
export async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  const raw = await readRaw(req, 64 * 1024);
  const form: Record<string, string> = Object.create(null);
  for (const [key, value] of new URLSearchParams(raw.toString('utf8'))) form[key] = value;
  return form;
}

export function isJsonType(type: string | undefined): boolean {
  if (!type) return false;
  if (type === 'application/json') return true; // the common case, without splitting
  const essence = type.split(';')[0]!.trim().toLowerCase();
  return essence === 'application/json' || (essence.startsWith('application/') && essence.endsWith('+json'));
}

/**
 * The checks of `parseJsonBody` on a body given as a value, not as text (a library call's): nested
 * deeper than MAX_DEPTH (a cycle too) is a 400, a `__proto__` key or a string or name that is not
 * well-formed Unicode a 422 naming its field, in that order. One walk finds whether any is there;
 * the fields are named only then.
 */
export function checkJsonValue(value: unknown): void {
  const found = { proto: false, text: false };
  if (!withinDepth(value, MAX_DEPTH, found)) throw new BadRequest(`The request body is nested too deeply: more than ${MAX_DEPTH} levels.`);
  if (found.proto) rejectProtoKeys(value, '');
  if (found.text) checkJsonText(value);
}

/** Whether `value` nests at most `levels` objects and arrays; notes a `__proto__` key and text that is not well-formed on the way. */
function withinDepth(value: unknown, levels: number, found: { proto: boolean; text: boolean }): boolean {
  if (typeof value === 'string') {
    if (!value.isWellFormed()) found.text = true;
    return true;
  }
  if (value === null || typeof value !== 'object') return true;
  if (levels === 0) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!withinDepth(item, levels - 1, found)) return false;
    return true;
  }
  for (const key of Object.keys(value)) {
    if (key === '__proto__') found.proto = true;
    else if (!key.isWellFormed()) found.text = true;
    if (!withinDepth((value as Record<string, unknown>)[key], levels - 1, found)) return false;
  }
  return true;
}

/** Refuses (422, naming the field) any `__proto__` key in `value`, whose fields are named from `path`. */
export function rejectProtoKeys(value: unknown, path: string): void {
  if (value === null || typeof value !== 'object') return;
  for (const key of Object.keys(value)) {
    const field = path ? `${path}.${key}` : key;
    if (key === '__proto__') throw Unprocessable.field(field, `The ${field} field is not allowed.`);
    rejectProtoKeys((value as Record<string, unknown>)[key], field);
  }
}

function drainThen(req: IncomingMessage, error: Error): Promise<never> {
  // Reading (and discarding) what the client sends lets it receive the 413 instead of a reset.
  req.resume();
  return Promise.reject(error);
}
