import { createHash } from 'node:crypto';
import type { JobKind } from '../clock/scheduler.js';
import { collection } from '../store/collection.js';
import type { Store, Transaction } from '../store/store.js';
import type { Scope } from './auth.js';
import type { Reply } from './envelope.js';
import { BadRequest, Conflict, HttpError, InvalidInput } from './errors.js';
import { idempotencyRecordSchema } from './record-schema.js';

/**
 * `Idempotency-Key` on POST (every POST takes one): keyed by Source, mode and key for
 * 24 hours of virtual time. A repeat with the same method, path and canonical body replays the
 * original status and byte-identical body (`Idempotent-Replayed: true`); a different request
 * with the key is a 409. The result is saved in the same journal line as the work it describes,
 * so a crash cannot keep one without the other. /v1 handlers run synchronously inside one
 * transaction, so concurrent duplicates cannot both run: the later one finds the saved result.
 * Asynchronous control-plane routes (a clock advance, a trigger): see `runIdempotent`.
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

/**
 * Saves a route's result under its key inside the route's own last transaction: a route whose
 * work spans several transactions (a clock advance) calls it there, so that the key commits in
 * the same journal line as the last of the work. Returns the reply to send (its bytes are the
 * saved ones).
 */
export type SaveResult = (tx: Transaction, reply: Reply) => Reply;

/** Keys whose first request is still running (an asynchronous route), by `source:mode:key`. */
const running = new WeakMap<Store, Map<string, { print: string; done: Promise<unknown> }>>();

/**
 * Runs `handle` under an `Idempotency-Key`. A synchronous handler runs inside one transaction
 * that also saves its result. An asynchronous one (a clock advance, a trigger) runs its work in
 * transactions of its own: its result is saved by `save` in its last one when it calls it, or
 * else in a transaction of its own as soon as it ends, before the answer is sent. While it runs
 * a duplicate waits for it and is then answered as any later repeat (the replay, or the 409 of
 * a different request), so the work never runs twice. `stamp` is the virtual time the result is
 * saved at: its 24 hours count from the answer, which an advance gives days after the request.
 */
export function runIdempotent(
  store: Store,
  scope: Scope,
  key: string,
  print: string,
  now: number,
  handle: (save: SaveResult) => Reply | Promise<Reply>,
  stamp: () => number = () => now,
): Reply | Promise<Reply> {
  const id = `${scope.source.slug}:${scope.mode}:${key}`;
  const saved = store.get(IdempotencyKeys, id);
  if (saved && now < saved.created_at + IDEMPOTENCY_WINDOW_MS) {
    if (saved.fingerprint !== print) throw conflict(key);
    return { status: saved.status, raw: saved.body, headers: { ...saved.headers, 'Idempotent-Replayed': 'true' } };
  }
  let inFlight = running.get(store);
  if (!inFlight) running.set(store, (inFlight = new Map()));
  const first = inFlight.get(id);
  if (first) {
    if (first.print !== print) throw conflict(key);
    // Answered as a repeat once the first has ended (nothing saved, a 5xx: it runs itself).
    return first.done.then(
      () => runIdempotent(store, scope, key, print, now, handle, stamp),
      () => runIdempotent(store, scope, key, print, now, handle, stamp),
    );
  }
  let savedIn: Reply | undefined;
  const save = (tx: Transaction, reply: Reply): Reply => {
    const raw = reply.raw ?? JSON.stringify(reply.json);
    const headers = reply.headers && Object.keys(reply.headers).length > 0 ? { headers: reply.headers } : {};
    tx.put(IdempotencyKeys, { id, fingerprint: print, status: reply.status, body: raw, ...headers, created_at: stamp() });
    savedIn = { status: reply.status, raw, ...(reply.headers ? { headers: reply.headers } : {}) };
    return savedIn;
  };
  return store.transaction((tx) => {
    let result: Reply | Promise<Reply>;
    try {
      result = handle(save);
    } catch (error) {
      return save(tx, refusal(error));
    }
    if (!(result instanceof Promise)) return savedIn ?? save(tx, result);
    // Asynchronous: what ran so far commits with this transaction; the key waits for the end.
    const done = result.then(
      (reply) => savedIn ?? store.transaction((later) => save(later, reply)),
      (error: unknown) => store.transaction((later) => save(later, refusal(error))),
    );
    const entry = { print, done };
    inFlight.set(id, entry);
    const forget = () => {
      if (inFlight.get(id) === entry) inFlight.delete(id);
    };
    done.then(forget, forget);
    return done;
  });
}

/**
 * A refusal by the rules (404, 409, 422, ...) is a result too and is saved; a 5xx is not
 * (thrown again), nor a 429 (a trigger's step over the rate limit): as on /v1, where a 429
 * comes before the key is looked at, a retry after it runs. Nor is a refusal of the request's
 * form (`InvalidInput`): on /v1 a schema 422 comes before the key is looked at too.
 */
function refusal(error: unknown): Reply {
  if (!(error instanceof HttpError) || error.status >= 500 || error.status === 429 || error instanceof InvalidInput) throw error;
  return { status: error.status, raw: JSON.stringify(error.toJSON()), headers: error.headers };
}

function conflict(key: string): Conflict {
  return new Conflict(`The Idempotency-Key "${key}" was already used with a different request (method, path or body); use a new key for a new request.`);
}

function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}
