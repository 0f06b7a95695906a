import { patched, type Change, type Collection, type IndexKey, type Replaced, type StoredRecord } from './collection.js';
import type { Indexes } from './indexes.js';
import { JsonBytes, NotPlain } from './json-bytes.js';
import type { Written } from './persistence.js';
import type { HeldKeys } from './raw-records.js';
import type { RecordMaps } from './record-maps.js';
import type { Watches } from './watches.js';

/*
 * How a commit reaches memory: its changes laid over the records (`applyChanges`), then the
 * records the app holds as written (`holdWritten`, Store.holdWhen) kept as their bytes.
 */

/**
 * Lays committed changes over the records in memory and their indexes (those built: see
 * Store.index), with what each replaces; without `replaced`, the journal's at start (maybe an
 * older version's).
 */
export function applyChanges(
  records: RecordMaps,
  built: ReadonlyMap<string, Indexes<StoredRecord>>,
  defs: ReadonlyMap<string, Collection<StoredRecord>>,
  changes: readonly Change[],
  replaced?: Replaced,
): void {
  // Looked up once for each run of changes to the same collection (a transaction's come grouped).
  let name: string | undefined;
  let map: Map<string, StoredRecord | number> | undefined;
  let indexes: Indexes<StoredRecord> | undefined;
  let upgrade: Collection<StoredRecord>['upgrade'];
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i]!;
    if (change.collection !== name) {
      name = change.collection;
      map = records.has(name) ? records.map(name) : undefined;
      indexes = built.get(name);
      upgrade = defs.get(name)?.upgrade;
    }
    if (!map) continue; // a collection this version no longer has
    let previous = replaced ? replaced[i] : map.get(change.id);
    const moved = change.recreated && previous !== undefined;
    let held: HeldKeys | undefined | false = false;
    if (typeof previous === 'number') {
      // Replaced before it was ever read (a journal written after the snapshot, a write):
      // read now only if its keys are in an index built without keeping it (see `index`) and
      // were not held with it, or if the change is laid over it.
      const raw = previous;
      held = records.held(raw) && records.raw!.keysHeld(raw);
      previous = (indexes && held === false) || change.removed ? records.read(change.collection, raw, false) : undefined;
      records.forget(change.collection, raw);
    }
    // A journal line that rewrote part of the record (only ever read at start).
    let record = change.removed ? patched(previous, change) : change.record;
    if (!replaced && record && upgrade) record = upgrade(record);
    if (moved) {
      // Deleted and written again in one transaction: it goes last (see Change).
      map.delete(change.id);
      if (held === false) indexes?.update(previous, undefined);
      else indexes?.updateHeld(change.id, held, undefined);
      previous = undefined;
      held = false;
    }
    if (record) map.set(change.id, record);
    else map.delete(change.id);
    // An index not built yet is built from the records when first used.
    if (held === false) indexes?.update(previous, record ?? undefined);
    else indexes?.updateHeld(change.id, held, record ?? undefined);
  }
}

/**
 * After a commit: the records written that the app holds (Store.holdWhen) are kept as their
 * JSON bytes, with their index keys, in place of the objects. The objects then die young:
 * the settled events of a year of daily billing (730,000) no longer pass through V8's old
 * generation, whose garbage set the year's peak memory. A record the journal wrote whole is
 * held as those bytes; one it wrote in part (an event rewritten as delivered: a real delivery
 * took far longer than this) is written out here.
 */
export function holdWritten(
  records: RecordMaps,
  indexDefs: ReadonlyMap<string, readonly [string, (record: StoredRecord) => IndexKey][]>,
  held: ReadonlyMap<string, (record: StoredRecord) => boolean>,
  watches: Watches,
  changes: readonly Change[],
  written: Written,
): void {
  const { bytes, spans } = written;
  // The spans come in the changes' order: `s` is the next one's.
  let s = 0;
  let name = '';
  let indexes: readonly [string, (record: StoredRecord) => IndexKey][] = [];
  let when: ((record: StoredRecord) => boolean) | undefined;
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i]!;
    const whole = s < spans.length && spans[s] === i;
    if (whole) s += 3;
    if (change.collection !== name) {
      name = change.collection;
      indexes = indexDefs.get(name) ?? [];
      when = records.has(name) ? held.get(name) : undefined;
    }
    const record = change.record;
    if (record === null || when === undefined || !when(record)) continue;
    const map = records.map(name);
    // The record the commit put in the map (a later change in the same line would be another).
    if (map.get(change.id) !== record) continue;
    let from = bytes;
    let start = whole ? spans[s - 2]! : 0;
    let end = whole ? spans[s - 1]! : 0;
    if (!whole) {
      const json = scratch();
      try {
        json.object(record as unknown as Record<string, unknown>);
      } catch (error) {
        if (error instanceof NotPlain) continue; // kept as the object
        throw error;
      }
      [from, start, end] = [json.buffer, 0, json.length];
    }
    records.hold(name, map, change.id, from, start, end, watches.marked(name, record), keysOf(indexes, record));
  }
}

let json: JsonBytes | undefined;
/** A buffer to write a record into, emptied. */
function scratch(): JsonBytes {
  json ??= new JsonBytes(4096);
  json.length = 0;
  return json;
}

/**
 * A record's index keys, as held with it: its one index's key, or one per index in their order
 * (the Store's `indexDefs`, which is the order of Indexes too).
 */
function keysOf(indexes: readonly [string, (record: StoredRecord) => IndexKey][], record: StoredRecord): HeldKeys | undefined {
  if (indexes.length === 0) return undefined;
  if (indexes.length === 1) return indexes[0]![1](record);
  return indexes.map(([, keyOf]) => keyOf(record));
}
