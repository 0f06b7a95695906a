import { createHash } from 'node:crypto';
import type { JobKind } from '../clock/scheduler.js';
import { collection } from '../store/collection.js';
import type { Store } from '../store/store.js';
import type { Scope } from './auth.js';
import type { Reply } from './envelope.js';
import { BadRequest, Conflict, HttpError } from './errors.js';
import { idempotencyRecordSchema } from './record-schema.js';

/**
 * `Idempotency-Key` on POST (every POST takes one): keyed by Source, mode and key for
 * 24 hours of virtual time. A repeat with the same method, path and canonical body replays the
 * original status and byte-identical body (`Idempotent-Replayed: true`); a different request
 * with the key is a 409. The result is saved in the same journal line as the work it describes,
 * so a crash cannot keep one without the other. Handlers run synchronously inside one
 * transaction, so concurrent duplicates cannot both run: the later one finds the saved result.
 */
export interface IdempotencyRecord {
  /** `source:mode:key` */
  id: string;
  fingerprint: string;
  status: number;
  body: string;
  headers?: Record<string, string>;
  created_at: number;
}

export const IdempotencyKeys = collection<IdempotencyRecord>('idempotency_keys', {}, undefined, idempotencyRecordSchema);

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export const idempotencyExpiry: JobKind<IdempotencyRecord> = {
  kind: 'idempotency_key.expired',
  collection: IdempotencyKeys,
  dueAt: (record) => record.created_at + IDEMPOTENCY_WINDOW_MS,
  run: (tx, record) => tx.delete(IdempotencyKeys, record.id),
};

export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0]! : header;
  if (key.length === 0 || key.length > 255) throw new BadRequest('The Idempotency-Key header must be 1 to 255 characters.');
  return key;
}

/** What identifies "the same request": method, path and the body's canonical JSON. */
export function fingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
}

export function runIdempotent(store: Store, scope: Scope, key: string, print: string, now: number, handle: () => Reply | Promise<Reply>): Reply {
  const id = `${scope.source.slug}:${scope.mode}:${key}`;
  const saved = store.get(IdempotencyKeys, id);
  if (saved && now < saved.created_at + IDEMPOTENCY_WINDOW_MS) {
    if (saved.fingerprint !== print) {
      throw new Conflict(`The Idempotency-Key "${key}" was already used with a different request (method, path or body); use a new key for a new request.`);
    }
    return { status: saved.status, raw: saved.body, headers: { ...saved.headers, 'Idempotent-Replayed': 'true' } };
  }
  return store.transaction((tx) => {
    let reply: Reply;
    try {
      const result = handle();
      if (result instanceof Promise) throw new Error('an idempotent route must answer synchronously');
      reply = { ...result, raw: result.raw ?? JSON.stringify(result.json) };
    } catch (error) {
      // Refusals by the rules (404, 409, 422, ...) are results too; 5xx are not saved.
      if (!(error instanceof HttpError) || error.status >= 500) throw error;
      reply = { status: error.status, raw: JSON.stringify(error.toJSON()), headers: error.headers };
    }
    const headers = reply.headers && Object.keys(reply.headers).length > 0 ? { headers: reply.headers } : {};
    tx.put(IdempotencyKeys, { id, fingerprint: print, status: reply.status, body: reply.raw!, ...headers, created_at: now });
    return reply;
  });
}

function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}
