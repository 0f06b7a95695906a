import type { App } from '../app.js';
import { formatTimestamp } from '../clock/format.js';
import type { Scope } from '../http/auth.js';
import { Meta, type MetaRecord } from '../resources/meta/records.js';
import type { Collection, StoredRecord } from '../store/collection.js';
import { RawRecords } from '../store/raw-records.js';
import { scopedCounter } from './scope-records.js';
import { checkDocument, collectionOf, recordChecker, References } from './snapshot-check.js';
import { checkSnapshotClock } from './snapshot-clock.js';
import { checkCounters } from './snapshot-records.js';
import { PARSED_AT_ONCE, type SpanList, type StreamedSnapshot } from './snapshot-streamed.js';
import { importSnapshot, type ImportReport, type SnapshotDocument } from './snapshot.js';

/**
 * `POST /_payemu/snapshot?all=true` with its records kept as sent (StreamedSnapshot): everything
 * is replaced the way a start reads a snapshot, not written again as one journal line of parsed
 * records (100,000 payments: a 37 MB line, and every record held parsed until it was written).
 * Each record is parsed, checked as `importSnapshot` checks it, and dropped; the store then
 * holds it unparsed (its bytes as sent, or the record itself when it must be written anew) and
 * the persistence writes them as its snapshot in one step (Store.replaceAll). The answers, the
 * refusals and the state after are those of `importSnapshot`, which any other import still
 * takes (the document parsed whole first): a scoped one, or while the store cannot be replaced
 * at once (inside a transaction). A compaction running is stopped first (the answer then waits
 * for its process to exit: milliseconds), as its snapshot would be replaced.
 */
export function importStreamed(
  app: App,
  collections: readonly Collection<StoredRecord>[],
  body: StreamedSnapshot,
  scope: Scope | 'all',
  waited = false,
): ImportReport | Promise<ImportReport> {
  if (scope === 'all' && !waited && !app.store.canReplaceAll()) {
    // A compaction writing the snapshot of the journal so far is stopped: the import's snapshot
    // replaces it at once. Then the import is done as it comes, on the store as it is then.
    const stopped = app.store.stopCompaction();
    if (stopped) return stopped.then(() => importStreamed(app, collections, body, scope, true));
  }
  if (scope !== 'all' || !app.store.canReplaceAll()) return importSnapshot(app, collections, body.materialize(), scope);
  const known = new Map(collections.map((def) => [def.name, def]));
  const data = body.doc.data as Record<string, unknown> | undefined;
  const marking = app.store.marking();
  const raw = RawRecords.inMemory(body.bytes, body.count);
  /** Per list in `data` (the last of a collection named twice), its records as the store takes them, or the first refusal of one. */
  const lists = new Map<SpanList, (StoredRecord | number)[]>();
  const refused = new Map<SpanList, unknown>();
  const highest = new Map<string, number>();
  const meta: StoredRecord[] = [];
  const references = new References();
  let kept = 0;
  for (const list of body.lists) {
    const def = data !== null && typeof data === 'object' && data[list.name] === list ? known.get(list.name) : undefined;
    // Each record's index keys, found by the check: the store's indexes are built from them.
    const keys = def ? Object.keys(def.indexes).map(() => new Array<unknown>(list.to - list.from)) : [];
    const check = def && recordChecker(def, 'all', keys, references);
    const records: (StoredRecord | number)[] = [];
    let top = 0;
    let checking = true;
    let parsed: unknown[] = [];
    let first = list.from;
    for (let i = list.from; i < list.to; i++) {
      if (i - first === parsed.length) {
        first = i;
        parsed = body.parseRange(list, i, Math.min(i + PARSED_AT_ONCE, list.to));
      }
      const value = parsed[i - first];
      // Every record is parsed (a 400 or 422 of the body comes first), but only those of a
      // known collection checked, up to the first refused.
      if (!check || !checking) continue;
      let record: StoredRecord;
      try {
        record = check(value, i - list.from);
      } catch (error) {
        refused.set(list, error);
        checking = false;
        continue;
      }
      top = Math.max(top, Number(record.id));
      // Kept as sent when that is the record as stored: a line of the snapshot file, which a
      // start reads back under the same id.
      if (record === value && def.name !== Meta.name && !body.hasLineBreak(i) && body.readAs(i, record.id)) {
        records.push(raw.add(record.id, body.starts[i]!, body.ends[i]!, marking.marked(def.name, record), records.length));
        kept++;
      } else records.push(record);
      if (def.name === Meta.name) meta.push(record);
    }
    if (def) {
      if (keys.length > 0) raw.holdKeys(def.name, keys);
      lists.set(list, records);
      highest.set(def.name, top);
    }
  }
  // The bytes are held only while a record kept in them is unparsed.
  if (kept === 0) raw.close();
  const refusal = body.refusal();
  if (refusal) throw refusal;
  // Then what `checkSnapshot` checks, in its order.
  checkDocument(body.doc, 'all');
  const byName = new Map<string, (StoredRecord | number)[]>();
  for (const [name, value] of Object.entries(data!)) {
    collectionOf(known, name, value);
    const list = value as SpanList;
    if (refused.has(list)) throw refused.get(list);
    byName.set(name, lists.get(list)!);
  }
  // The highest id of each counted collection stands for its records.
  const counted: Record<string, unknown[]> = { meta };
  for (const [name, top] of highest) if (name !== Meta.name && (byName.get(name)?.length ?? 0) > 0) counted[name] = [{ id: String(top) }];
  checkCounters(counted);
  const snapshot = body.doc as unknown as SnapshotDocument;
  const target = checkSnapshotClock(app, snapshot.clock, true);

  const before = app.clock.state();
  let removed = 0;
  for (const def of collections) if (def.name !== Meta.name) removed += app.store.count(def);
  const counts: Record<string, number> = {};
  for (const def of collections) counts[def.name] = byName.get(def.name)?.length ?? 0;
  try {
    const clock = app.clock;
    // The clock stands where the snapshot's stood; frozen or not follows this run.
    clock.restore(clock.frozen() ? { offsetMs: before.offsetMs, frozenAt: target } : { offsetMs: target - (clock.now() - clock.offsetMs()), frozenAt: null });
    const records = collections.map((def): [string, (StoredRecord | number)[]] => [
      def.name,
      def.name === Meta.name ? metaAfter(app, meta) : (byName.get(def.name) ?? []),
    ]);
    app.store.replaceAll(raw, records, marking);
  } catch (error) {
    app.clock.restore(before);
    throw error;
  }
  // What the records have due, and the deliveries they left pending, as after a start.
  app.scheduler.rebuild();
  app.webhooks.reload();
  return { scope: 'all', removed, counts, renumbered: {}, now: formatTimestamp(app.clock.now()) };
}

/**
 * The meta records after an import of everything, as `importSnapshot` leaves them: the clock
 * (as it stands now) and the counters shared by every scope stay, except those the snapshot
 * moves forward; a scope's own counters are the snapshot's.
 */
function metaAfter(app: App, imported: readonly StoredRecord[]): StoredRecord[] {
  const meta = new Map<string, StoredRecord>();
  for (const record of app.store.all(Meta)) if (record.id === 'clock' || !scopedCounter(record.id)) meta.set(record.id, record);
  for (const record of imported) {
    const counter = record as Extract<MetaRecord, { value: number }>;
    const current = meta.get(counter.id) as typeof counter | undefined;
    // Shared counters never move back: ids given since the snapshot stay unique.
    if (!scopedCounter(counter.id) && current && current.value >= counter.value) continue;
    meta.set(counter.id, counter);
  }
  meta.set('clock', { id: 'clock', clock: app.clock.state() } as StoredRecord);
  return [...meta.values()];
}
