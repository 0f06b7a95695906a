import type { IncomingMessage } from 'node:http';
import { BadRequest, PayloadTooLarge, Unprocessable, UnsupportedMediaType } from './errors.js';

export const BODY_LIMIT = 1024 * 1024;

/** Reads the raw body, refusing more than `limit` bytes (413) without buffering the excess. */
export function readRaw(req: IncomingMessage, limit = BODY_LIMIT): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return drainThen(req, new PayloadTooLarge(limit));
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
  });
}

/**
 * Reads a JSON body. No body (or an empty one) is `undefined`; a body that is not declared as
 * JSON is a 415; JSON that does not parse is a 400; `__proto__` keys are refused (422) so no
 * code path can ever copy one onto an object's prototype.
 */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const raw = await readRaw(req);
  if (raw.length === 0) return undefined;
  const type = req.headers['content-type'];
  if (!isJsonType(type)) throw new UnsupportedMediaType(type);
  const text = raw.toString('utf8');
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BadRequest(`The request body is not valid JSON: ${(error as Error).message}.`);
  }
  if (text.includes('__proto__')) rejectProtoKeys(value, '');
  return value;
}

/** Reads an `application/x-www-form-urlencoded` body (the hosted pages' forms). */
export async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  const raw = await readRaw(req, 64 * 1024);
  const form: Record<string, string> = Object.create(null);
  for (const [key, value] of new URLSearchParams(raw.toString('utf8'))) form[key] = value;
  return form;
}

function isJsonType(type: string | undefined): boolean {
  if (!type) return false;
  const essence = type.split(';')[0]!.trim().toLowerCase();
  return essence === 'application/json' || (essence.startsWith('application/') && essence.endsWith('+json'));
}

function rejectProtoKeys(value: unknown, path: string): void {
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
