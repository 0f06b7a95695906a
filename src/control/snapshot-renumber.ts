import type { App } from '../app.js';
import { Unprocessable } from '../http/errors.js';
import { Meta, type MetaRecord } from '../resources/meta/records.js';
import type { Collection, StoredRecord } from '../store/collection.js';
import { inScope } from './scope-records.js';

/**
 * The collections whose ids are integers drawn from a counter shared by every Source and mode
 * (`counter:<collection>`): every fresh run gives 1, 2, 3, ..., so a scope's snapshot imported
 * into another run usually holds ids that other scopes already use there.
 */
const SHARED_ID_COLLECTIONS: readonly string[] = ['payments', 'payment_links'];

/**
 * The fields that hold the id of a record of those collections, in any record of any collection
 * and at any depth (an event's `data.payment_id`, an old event's `payload.data.payment_id`, a
 * refund's, charge's or invoice's `payment_id`, a session's, schedule's or payment's
 * `payment_link_id`). Index keys are computed from these fields, so they follow.
 */
const ID_FIELDS: Readonly<Record<string, string>> = { payment_id: 'payments', payment_link_id: 'payment_links' };

/** User data, never read as a reference: a `payment_id` in metadata is the user's own. */
const OPAQUE_FIELDS = new Set(['metadata']);

/** Old id -> new id, by collection (`{"payments": {"3": 41}}`); empty when nothing moved. */
export type Renumbered = Record<string, Record<string, number>>;

export interface ScopedImportPlan {
  /** The snapshot's collections with the renumbered ids and every reference to them rewritten (the document itself is not changed). */
  data: Record<string, StoredRecord[]>;
  renumbered: Renumbered;
  /** Where each shared counter must stand at least once the renumbered records are written. */
  counters: Record<string, number>;
}

/**
 * How a scoped snapshot is written without touching another Source or mode: a payment or
 * payment link whose integer id another scope's record has gets a new id above the store's
 * counter (and the snapshot's), and every reference to it in the snapshot is rewritten; any
 * other id another scope's record has, or a reference (`reference` index) another Source uses
 * in this mode, is a 422 naming the record. Read-only: nothing is written here.
 */
export function planScopedImport(
  app: App,
  collections: readonly Collection<StoredRecord>[],
  data: Record<string, StoredRecord[]>,
  slug: string,
  mode: string,
): ScopedImportPlan {
  const byName = new Map(collections.map((def) => [def.name, def]));
  const referenced = collections.filter((def) => def.indexes.reference !== undefined);
  const colliding = new Map<string, string[]>();
  for (const [name, records] of Object.entries(data)) {
    const def = byName.get(name);
    if (!def || name === Meta.name) continue;
    records.forEach((record, i) => {
      const at = `data.${name}.${i}`;
      const existing = app.store.get(def, record.id);
      if (existing && !inScope(existing, slug, mode)) {
        if (SHARED_ID_COLLECTIONS.includes(name) && /^[1-9][0-9]{0,15}$/.test(record.id)) {
          let ids = colliding.get(name);
          if (!ids) colliding.set(name, (ids = []));
          ids.push(record.id);
        } else {
          throw Unprocessable.field(
            at,
            `${at}: the id "${record.id}" is already used by a record of another Source or mode in this payemu; a scoped import never replaces one (reset that scope, or import everything with ?all=true).`,
          );
        }
      }
      const keyOf = def.indexes.reference;
      const key = keyOf?.(record);
      if (typeof key !== 'string') return;
      for (const other of referenced) {
        if (app.store.find(other, 'reference', key).some((r) => !inScope(r, slug, mode))) {
          const reference = (record as { reference?: unknown }).reference;
          throw Unprocessable.field(
            at,
            `${at}: the reference ${JSON.stringify(reference)} is already used by another Source in ${mode} mode (a reference belongs to one Source of the merchant per mode).`,
          );
        }
      }
    });
  }
  if (colliding.size === 0) return { data, renumbered: {}, counters: {} };

  const renumbered: Renumbered = {};
  const counters: Record<string, number> = {};
  for (const [name, ids] of colliding) {
    const def = byName.get(name)!;
    const counterId = `counter:${name}`;
    const imported = new Set(data[name]!.map((r) => r.id));
    const stored = (app.store.get(Meta, counterId) as Extract<MetaRecord, { value: number }> | undefined)?.value ?? 0;
    const documented = (data[Meta.name]?.find((r) => r.id === counterId) as { value?: number } | undefined)?.value ?? 0;
    // A loop, not Math.max(...ids): a snapshot of 100,000 payments is more arguments than a call takes.
    let highest = Math.max(stored, documented);
    for (const id of imported) if (/^[0-9]+$/.test(id)) highest = Math.max(highest, Number(id));
    let next = highest + 1;
    const map: Record<string, number> = {};
    for (const id of ids.sort((a, b) => Number(a) - Number(b))) {
      while (imported.has(String(next)) || app.store.get(def, String(next)) !== undefined) next++;
      map[id] = next;
      counters[counterId] = next;
      next++;
    }
    renumbered[name] = map;
  }

  const rewritten: Record<string, StoredRecord[]> = {};
  for (const [name, records] of Object.entries(data)) {
    if (name === Meta.name) {
      rewritten[name] = records;
      continue;
    }
    const own = renumbered[name];
    rewritten[name] = records.map((record) => {
      const id = own !== undefined ? lookUp(own, record.id) : undefined;
      const changed = rewrite(record, renumbered, 0) as StoredRecord;
      return id === undefined ? changed : { ...changed, id: String(id) };
    });
  }
  return { data: rewritten, renumbered, counters };
}

/** `value` with every id field that names a renumbered record rewritten (same type: a number stays a number); unchanged parts are shared. */
function rewrite(value: unknown, renumbered: Renumbered, depth: number): unknown {
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((item, i) => {
      const next = rewrite(item, renumbered, depth + 1);
      if (next !== item) (out ??= [...value])[i] = next;
    });
    return out ?? value;
  }
  let out: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    let next = item;
    const target = lookUp(ID_FIELDS, key);
    if (target !== undefined && (typeof item === 'string' || typeof item === 'number')) {
      const moved = lookUp(renumbered, target);
      const to = moved !== undefined ? lookUp(moved, String(item)) : undefined;
      if (to !== undefined) next = typeof item === 'number' ? to : String(to);
    } else if (!OPAQUE_FIELDS.has(key)) next = rewrite(item, renumbered, depth + 1);
    if (next !== item) (out ??= { ...(value as Record<string, unknown>) })[key] = next;
  }
  return out ?? value;
}

/** An own property only: an id or key such as "constructor" names nothing here. */
function lookUp<V>(object: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}
