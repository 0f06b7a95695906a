import type { App } from '../app.js';
import { formatTimestamp } from '../clock/format.js';
import type { Scope } from '../http/auth.js';
import { integer, named, object, string } from '../schemas/wire.js';
import { Meta, type MetaRecord } from '../resources/meta/records.js';
import type { Collection, StoredRecord } from '../store/collection.js';
import { clockView } from './clock.js';
import { checkSnapshotClock } from './snapshot-clock.js';
import { checkSnapshot, counterBelongs, SNAPSHOT_FORMAT } from './snapshot-check.js';
import { planScopedImport, type Renumbered } from './snapshot-renumber.js';
import { inScope, scopedCounter } from './scope-records.js';

export { SNAPSHOT_FORMAT };

/**
 * How large a snapshot `POST /_payemu/snapshot` takes (100,000 payments are about 33 MB): 500 MiB.
 * The body is parsed record by record as it arrives (snapshot-body.ts), never as one string, so
 * V8's limit on a string (about 512 MiB) no longer bounds it; the records parsed are held until
 * the whole document is checked, about 7 times the text's size, so the limit bounds memory. A
 * body declared larger is a 413 sent before the body is read; one that grows larger, as it does.
 */
export const SNAPSHOT_BODY_LIMIT = 500 * 1024 * 1024;

export type SnapshotScope = 'all' | { source: string; mode: 'test' | 'live' };

export interface SnapshotDocument {
  payemu_snapshot: number;
  scope: SnapshotScope;
  clock: { now: string; offset_seconds: number; frozen: boolean };
  /** Collection name -> its records, as stored. */
  data: Record<string, StoredRecord[]>;
}

export interface ImportReport {
  scope: SnapshotScope;
  /** Records removed from the scope before the snapshot's were written. */
  removed: number;
  /** Records written, by collection. */
  counts: Record<string, number>;
  /**
   * Payments and payment links written under a new id because another Source or mode uses
   * theirs, by collection: old id -> new id (`{"payments": {"3": 41}}`); `{}` when none moved.
   */
  renumbered: Renumbered;
  now: string;
}

const scopeSchema = { anyOf: [{ const: 'all' }, object({ source: string, mode: { type: 'string', enum: ['test', 'live'] } })] };

export const snapshotSchema = named('Snapshot', {
  type: 'object',
  required: ['payemu_snapshot', 'scope', 'clock', 'data'],
  properties: {
    payemu_snapshot: { const: SNAPSHOT_FORMAT },
    scope: scopeSchema,
    clock: object({ now: string, offset_seconds: integer, frozen: { type: 'boolean' } }),
    data: {
      type: 'object',
      description: 'Each collection of the store (payments, sessions, events, ...) with its records as stored.',
      additionalProperties: { type: 'array', items: { type: 'object', additionalProperties: true } },
    },
  },
  additionalProperties: false,
});

export const importReport = named(
  'SnapshotImport',
  object({
    scope: scopeSchema,
    removed: integer,
    counts: { type: 'object', additionalProperties: integer },
    renumbered: {
      type: 'object',
      description:
        'Payments and payment links written under a new id because another Source or mode of this payemu uses theirs: collection -> {old id: new id}; `{}` when none moved.',
      additionalProperties: { type: 'object', additionalProperties: integer },
    },
    now: string,
  }),
);

export const allQuery = { type: 'object', properties: { all: { type: 'boolean' } } } as const;

/**
 * A record of an exported document still as the JSON text it was read as (from the store's
 * snapshot or an imported body, never parsed since): written out as it is (snapshot-text.ts),
 * parsed wherever the document is used as objects (`toJSON`, `plainSnapshot`).
 */
export class RecordText {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** A snapshot document as `exportSnapshot` makes it with `texts`: some records still their text. */
export type ExportedSnapshot = Omit<SnapshotDocument, 'data'> & { data: Record<string, (StoredRecord | RecordText)[]> };

/**
 * The state of `scope` (or everything) as a snapshot document: every record, the id counters and the clock; not the journal.
 * With `texts` (everything exported to be written out), a record never parsed since it was read
 * stays its text (RecordText): 100,000 payments after a restart are copied, not parsed and
 * stringified again.
 */
export function exportSnapshot(app: App, collections: readonly Collection<StoredRecord>[], scope: Scope | 'all'): SnapshotDocument;
export function exportSnapshot(app: App, collections: readonly Collection<StoredRecord>[], scope: Scope | 'all', texts: true): ExportedSnapshot;
export function exportSnapshot(app: App, collections: readonly Collection<StoredRecord>[], scope: Scope | 'all', texts = false): ExportedSnapshot {
  const slug = scope === 'all' ? undefined : scope.source.slug;
  const mode = scope === 'all' ? undefined : scope.mode;
  const data: Record<string, (StoredRecord | RecordText)[]> = {};
  for (const def of collections) {
    const records: (StoredRecord | RecordText)[] = [];
    // Only the meta records and a scope's are looked at; the rest go as they are.
    if (texts && scope === 'all' && def.name !== Meta.name) {
      for (const record of app.store.all(def, true)) records.push(typeof record === 'string' ? new RecordText(record) : record);
      data[def.name] = records;
      continue;
    }
    for (const record of app.store.all(def)) {
      if (def.name === Meta.name) {
        // The clock is the document's own `clock`; counters are the id counters; a namespace's birth is its own.
        if (record.id === 'clock' || record.id === 'namespace') continue;
        if (slug !== undefined && !counterBelongs(record.id, slug, mode!)) continue;
      } else if (slug !== undefined && !inScope(record, slug, mode!)) continue;
      records.push(record);
    }
    data[def.name] = records;
  }
  return {
    payemu_snapshot: SNAPSHOT_FORMAT,
    scope: scope === 'all' ? 'all' : { source: scope.source.slug, mode: scope.mode },
    clock: clockView(app),
    data,
  };
}

/** The document with every record an object (a RecordText parsed): what the library's `snapshot.export` returns. */
export function plainSnapshot(document: ExportedSnapshot): SnapshotDocument {
  const data: Record<string, StoredRecord[]> = {};
  for (const [name, records] of Object.entries(document.data))
    data[name] = records.map((record) => (record instanceof RecordText ? (record.toJSON() as StoredRecord) : record));
  return { ...document, data };
}

/**
 * Replaces `scope` (or everything, and the clock) with the snapshot's state, in one
 * transaction. The whole document is checked first: anything wrong is a 422 saying what and
 * where, and nothing changes. Counters shared by every scope (payment and link ids) only move
 * forward, so an id is never given twice; a scope's own counters (invoice numbers) are the
 * snapshot's. Due work and pending webhook deliveries carry on from the imported records.
 */
export function importSnapshot(app: App, collections: readonly Collection<StoredRecord>[], document: unknown, scope: Scope | 'all'): ImportReport {
  checkSnapshot(document, collections, scope);
  const snapshot = document as SnapshotDocument;
  const slug = scope === 'all' ? undefined : scope.source.slug;
  const mode = scope === 'all' ? undefined : scope.mode;
  const counts: Record<string, number> = {};
  let removed = 0;
  const before = app.clock.state();
  // An `all` snapshot sets the clock: at most one advance's span ahead of this one's.
  const clockAt = checkSnapshotClock(app, snapshot.clock, scope === 'all');
  const target = scope === 'all' ? clockAt : undefined;
  // A scoped import leaves every other scope's records as they are: ids they use are given anew
  // (payments, links) or refused (422), before anything is written.
  const plan = slug === undefined ? { data: snapshot.data, renumbered: {}, counters: {} } : planScopedImport(app, collections, snapshot.data, slug, mode!);
  try {
    app.store.transaction((tx) => {
      for (const def of collections) {
        if (def.name === Meta.name) continue;
        for (const record of app.store.all(def)) {
          if (slug === undefined || inScope(record, slug, mode!)) {
            tx.delete(def, record.id);
            removed++;
          }
        }
      }
      for (const record of app.store.all(Meta)) {
        // A scope's own counters restart from the snapshot's (absent: from 1, as a reset does).
        if (record.id !== 'clock' && scopedCounter(record.id) && (slug === undefined || counterBelongs(record.id, slug, mode!))) tx.delete(Meta, record.id);
      }
      for (const def of collections) {
        const records = plan.data[def.name] ?? [];
        for (const record of records) {
          if (def.name === Meta.name) {
            const counter = record as Extract<MetaRecord, { value: number }>;
            const current = tx.get(Meta, counter.id) as typeof counter | undefined;
            // Shared counters never move back: ids given since the snapshot stay unique.
            if (!scopedCounter(counter.id) && current && current.value >= counter.value) continue;
          }
          // What is left of the store after the deletes is other scopes' (planScopedImport made sure of it).
          if (slug !== undefined && def.name !== Meta.name && tx.get(def, record.id) !== undefined)
            throw new Error(`snapshot import: ${def.name} "${record.id}" of another scope would be replaced`);
          // A document exported by an older version holds its records in that version's shape.
          tx.put(def, def.upgrade ? def.upgrade(record) : record);
        }
        counts[def.name] = records.length;
      }
      // Renumbered ids were drawn above the shared counters: they move past them.
      for (const [id, value] of Object.entries(plan.counters)) {
        const current = tx.get(Meta, id) as Extract<MetaRecord, { value: number }> | undefined;
        if (!current || current.value < value) tx.put(Meta, { id: id as `counter:${string}`, value });
      }
      if (target !== undefined) {
        // The clock stands where the snapshot's stood; frozen or not follows this run.
        const clock = app.clock;
        clock.restore(
          clock.frozen() ? { offsetMs: before.offsetMs, frozenAt: target } : { offsetMs: target - (clock.now() - clock.offsetMs()), frozenAt: null },
        );
        tx.put(Meta, { id: 'clock', clock: clock.state() });
      }
    });
  } catch (error) {
    app.clock.restore(before);
    throw error;
  }
  // Deliveries the snapshot left pending (or retrying) go out as they fall due; the scheduler
  // sees every record written as it commits. Once committed: the import's transaction may be
  // nested in the one that saves its Idempotency-Key result.
  app.store.afterCommit(() => app.webhooks.reload());
  return {
    scope: scope === 'all' ? 'all' : { source: scope.source.slug, mode: scope.mode },
    removed,
    counts,
    renumbered: plan.renumbered,
    now: formatTimestamp(app.clock.now()),
  };
}
