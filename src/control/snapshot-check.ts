import { parseTimestamp } from '../clock/format.js';
import type { Scope } from '../http/auth.js';
import { Unprocessable } from '../http/errors.js';
import { Payments } from '../resources/common/payment-records.js';
import { Meta } from '../resources/meta/records.js';
import type { Collection, StoredRecord } from '../store/collection.js';
import { inScope, scopedCounter } from './scope-records.js';
import { checkCounters, checkStoredRecord } from './snapshot-records.js';
import { SpanList } from './snapshot-streamed.js';

/** The format this payemu writes and reads; a document of a later one is refused. */
export const SNAPSHOT_FORMAT = 1;

/**
 * Everything a snapshot document must be before an import writes anything; the first problem is
 * the 422. In three parts, so that an import that checks each record as it parses it
 * (snapshot-swap.ts) answers the same: the document's own fields (`checkDocument`), each
 * collection's name and list (`collectionOf`), each record (`recordChecker`), then the counters.
 */
export function checkSnapshot(document: unknown, collections: readonly Collection<StoredRecord>[], scope: Scope | 'all'): void {
  const data = checkDocument(document, scope);
  const known = new Map(collections.map((def) => [def.name, def]));
  const references = new References();
  for (const [name, records] of Object.entries(data)) {
    const check = recordChecker(collectionOf(known, name, records), scope, undefined, references);
    const list = records as unknown[];
    // A loop: 100,000 records are checked here.
    for (let i = 0; i < list.length; i++) check(list[i], i);
  }
  checkCounters(data as Record<string, unknown[]>);
}

const fail = (field: string, message: string): never => {
  throw Unprocessable.field(field, `This is not a snapshot payemu can import: ${message}`);
};

/** The document's own fields (format, scope, clock, that `data` is an object); its `data`. */
export function checkDocument(document: unknown, scope: Scope | 'all'): Record<string, unknown> {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) fail('payemu_snapshot', 'it is not a JSON object.');
  const doc = document as Record<string, unknown>;
  const format = doc.payemu_snapshot;
  if (format === undefined) fail('payemu_snapshot', 'it has no "payemu_snapshot" (export one with GET /_payemu/snapshot).');
  if (typeof format !== 'number' || !Number.isInteger(format) || format < 1)
    fail('payemu_snapshot', `"payemu_snapshot" must be ${SNAPSHOT_FORMAT}, not ${JSON.stringify(format)}.`);
  if ((format as number) > SNAPSHOT_FORMAT)
    fail('payemu_snapshot', `it is of format ${format as number}, written by a later payemu; this one reads format ${SNAPSHOT_FORMAT}: upgrade payemu.`);
  for (const key of Object.keys(doc)) if (!['payemu_snapshot', 'scope', 'clock', 'data'].includes(key)) fail(key, `it has an unknown field "${key}".`);

  const docScope = doc.scope;
  if (scope === 'all') {
    if (docScope !== 'all')
      fail(
        'scope',
        'it is a snapshot of one Source and mode, and ?all=true replaces everything: import it without ?all=true, with a key of that Source and mode.',
      );
  } else {
    if (docScope === 'all') fail('scope', 'it is a snapshot of everything: import it with ?all=true.');
    const s = docScope as { source?: unknown; mode?: unknown } | null;
    if (s === null || typeof s !== 'object' || typeof s.source !== 'string' || (s.mode !== 'test' && s.mode !== 'live'))
      fail('scope', '"scope" must be "all" or {"source": "<slug>", "mode": "test" | "live"}.');
    if (s!.source !== scope.source.slug || s!.mode !== scope.mode)
      fail(
        'scope',
        `it is a snapshot of ${String(s!.source)} in ${String(s!.mode)} mode; import it with a key of that Source and mode (this key is ${scope.source.slug}'s ${scope.mode} key).`,
      );
  }

  const clock = doc.clock as Record<string, unknown> | null;
  if (clock === null || typeof clock !== 'object' || typeof clock.now !== 'string' || parseTimestamp(clock.now) === undefined)
    fail('clock', '"clock" must be {"now": "<ISO 8601 timestamp>", ...} as GET /_payemu/clock answers.');

  const data = doc.data as Record<string, unknown> | null;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) fail('data', '"data" must be an object of collections.');
  return data!;
}

/** The collection `name` of `data`, whose value is `records`: a 422 when it is not one, or its records not a list. */
export function collectionOf(known: ReadonlyMap<string, Collection<StoredRecord>>, name: string, records: unknown): Collection<StoredRecord> {
  const def = known.get(name);
  if (!def) fail(`data.${name}`, `"data" has an unknown collection "${name}" (this payemu has ${[...known.keys()].join(', ')}).`);
  if (!Array.isArray(records) && !(records instanceof SpanList)) fail(`data.${name}`, `"data.${name}" must be an array of records.`);
  return def!;
}

/**
 * Checks the records of `def`'s list one by one, in order (`i`, each one's place in it): each
 * throws the 422 of a record that is not one of `def` (or is of another scope than `scope`, or
 * an id twice), and returns the record in this version's shape (its collection's `upgrade`).
 * With `keys`, each record's index keys are kept there (per index, by `i`; null for none).
 * `references`, one for the whole document, holds the references of the lists checked so far.
 */
export function recordChecker(
  def: Collection<StoredRecord>,
  scope: Scope | 'all',
  keys: unknown[][] | undefined,
  references: References,
): (record: unknown, i: number) => StoredRecord {
  const name = def.name;
  const slug = scope === 'all' ? undefined : scope.source.slug;
  const mode = scope === 'all' ? undefined : scope.mode;
  const ids = new DistinctIds();
  const indexes = Object.entries(def.indexes);
  const referenceIndex = indexes.findIndex(([index]) => index === 'reference');
  return (record, i) => {
    // The record's path made only for a refusal: 100,000 records pass.
    const at = () => `data.${name}.${i}`;
    if (record === null || typeof record !== 'object' || Array.isArray(record)) fail(at(), `${at()} is not a record (an object).`);
    const r = record as { id?: unknown; source?: unknown; mode?: unknown; value?: unknown };
    if (typeof r.id !== 'string' || r.id === '') fail(at(), `${at()} has no "id".`);
    const id = r.id as string;
    if (!ids.add(id)) fail(at(), `${at()}: the id "${id}" is in "${name}" twice.`);
    if (name === Meta.name) {
      if (!id.startsWith('counter:') || typeof r.value !== 'number' || !Number.isInteger(r.value) || r.value < 0)
        fail(at(), `${at()} must be a counter, {"id": "counter:<name>", "value": <integer>}.`);
      if (slug !== undefined && !counterBelongs(id, slug, mode!)) fail(at(), `${at()}: the counter "${id}" belongs to another Source or mode.`);
      return checkStoredRecord(def, r as StoredRecord, at());
    }
    if ((r.source !== undefined && typeof r.source !== 'string') || (r.mode !== undefined && r.mode !== 'test' && r.mode !== 'live'))
      fail(at(), `${at()} has a "source" or "mode" that is not one.`);
    if (slug !== undefined && !inScope(r as StoredRecord, slug, mode!)) fail(at(), `${at()} ("${id}") belongs to another Source or mode than the snapshot's.`);
    for (let k = 0; k < indexes.length; k++) {
      const [index, keyOf] = indexes[k]!;
      let key: unknown;
      try {
        key = keyOf(r as StoredRecord);
      } catch {
        fail(at(), `${at()} ("${id}") lacks what the "${index}" index of ${name} reads.`);
      }
      if (key !== undefined && typeof key !== 'string' && !isStrings(key)) fail(at(), `${at()} ("${id}") lacks what the "${index}" index of ${name} reads.`);
      if (keys) keys[k]![i] = key ?? null;
      if (k === referenceIndex && typeof key === 'string') references.claim(name, r, at);
    }
    return checkStoredRecord(def, r as StoredRecord, at);
  };
}

/**
 * The ids of a collection's records, one by one: `add` says whether an id is new. Ids whose
 * numbers rise (payments are "1", "2", ...) are all different strings, so while they do no set
 * is needed (a set of 100,000 ids: about 40 ms of an import's CPU, each new string hashed); from
 * the first that does not (or is not a number), the ids so far go into a set, which answers.
 */
class DistinctIds {
  private last = Number.NEGATIVE_INFINITY;
  private rising: string[] | undefined = [];
  private set: Set<string> | undefined;

  add(id: string): boolean {
    if (this.rising !== undefined) {
      const n = Number(id);
      // Equal strings are equal numbers (NaN, which is not even equal to itself, stops this).
      if (n > this.last) {
        this.last = n;
        this.rising.push(id);
        return true;
      }
      this.set = new Set(this.rising);
      this.rising = undefined;
    }
    const set = this.set!;
    if (set.has(id)) return false;
    set.add(id);
    return true;
  }
}

/**
 * The references of a document's payments and sessions, held to the rules payemu keeps as it
 * writes them: one payment per reference in a mode, and a reference used by one Source only in
 * a mode. A document that breaks one would leave two payments where a read by reference finds
 * one. Kept by mode, then by the reference as parsed: a key made of the two (the index's) would
 * be a new string to hash for each of 100,000 payments, three times the CPU.
 */
export class References {
  /** Reference -> the Source of its payment, by mode. */
  private readonly payments = { test: new Map<unknown, unknown>(), live: new Map<unknown, unknown>() };
  /** Reference -> the Source of its sessions, of references no payment had when they came, by mode. */
  private readonly sessions = { test: new Map<unknown, unknown>(), live: new Map<unknown, unknown>() };

  /** Throws the 422 of record `at()` of `collection` (payments or sessions) when it breaks a rule. */
  claim(collection: string, record: { reference?: unknown; source?: unknown; mode?: unknown }, at: () => string): void {
    const { reference, source, mode } = record;
    // Any other mode is the record schema's 422.
    if (mode !== 'test' && mode !== 'live') return;
    const payments = this.payments[mode];
    const paid = payments.get(reference);
    const isPayment = collection === Payments.name;
    if (isPayment && paid !== undefined)
      fail(at(), `${at()}: the reference ${JSON.stringify(reference)} has another payment in ${mode} mode (a reference has one payment).`);
    const owner = paid ?? this.sessions[mode].get(reference);
    if (owner !== undefined && owner !== source)
      fail(
        at(),
        `${at()}: the reference ${JSON.stringify(reference)} is used by two Sources in ${mode} mode (a reference belongs to one Source of the merchant per mode).`,
      );
    if (isPayment) payments.set(reference, source);
    else if (owner === undefined) this.sessions[mode].set(reference, source);
  }
}

/** An index key of several strings. */
function isStrings(key: unknown): boolean {
  if (!Array.isArray(key)) return false;
  for (const k of key) if (typeof k !== 'string') return false;
  return true;
}

/** A counter of `source:mode` (invoice numbers), or one shared by every scope (payment ids). */
export function counterBelongs(id: string, slug: string, mode: string): boolean {
  return !scopedCounter(id) || id.endsWith(`:${slug}:${mode}`);
}
