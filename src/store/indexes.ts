import type { Collection, IndexKey, StoredRecord } from './collection.js';

/**
 * Secondary indexes of one collection: index name -> key -> ids in insertion order.
 * A key held by a single id stores the bare string, which keeps unique-ish indexes
 * (references) small when the store holds 100,000 records.
 */
export class Indexes<T extends StoredRecord> {
  private readonly maps = new Map<string, Map<string, string | Set<string>>>();
  // [key function, its map] per index, resolved once: `update` runs for every record written
  // and for every record loaded at start-up.
  private readonly entries: [(record: T) => IndexKey, Map<string, string | Set<string>>][] = [];

  constructor(private readonly def: Collection<T>) {
    for (const [name, keyOf] of Object.entries(def.indexes)) {
      const map = new Map<string, string | Set<string>>();
      this.maps.set(name, map);
      this.entries.push([keyOf, map]);
    }
  }

  update(previous: T | undefined, next: T | undefined): void {
    for (const [keyOf, map] of this.entries) {
      const old = previous ? keyOf(previous) : undefined;
      const now = next ? keyOf(next) : undefined;
      if (typeof old !== 'object' && typeof now !== 'object') {
        // One key (or none) before and after, the usual case: no arrays to build.
        if (old === now) continue;
        if (old !== undefined) remove(map, old, previous!.id);
        if (now !== undefined) add(map, now, next!.id);
        continue;
      }
      const before = keysOf(old);
      const after = keysOf(now);
      for (const key of before) if (!after.includes(key)) remove(map, key, previous!.id);
      for (const key of after) if (!before.includes(key)) add(map, key, next!.id);
    }
  }

  ids(index: string, key: string): readonly string[] {
    const map = this.maps.get(index);
    if (!map) throw new Error(`collection ${this.def.name} has no index ${index}`);
    const entry = map.get(key);
    if (entry === undefined) return [];
    return typeof entry === 'string' ? [entry] : [...entry];
  }

  /** The ids under `key`, in insertion order, without copying them. */
  *iterate(index: string, key: string): IterableIterator<string> {
    const entry = this.maps.get(index)?.get(key);
    if (entry === undefined) return;
    if (typeof entry === 'string') yield entry;
    else yield* entry;
  }

  count(index: string, key: string): number {
    const entry = this.maps.get(index)?.get(key);
    return entry === undefined ? 0 : typeof entry === 'string' ? 1 : entry.size;
  }

  clear(): void {
    for (const map of this.maps.values()) map.clear();
  }
}

function keysOf(key: IndexKey): readonly string[] {
  if (key === undefined) return [];
  return typeof key === 'string' ? [key] : key;
}

function add(map: Map<string, string | Set<string>>, key: string, id: string): void {
  const entry = map.get(key);
  if (entry === undefined) map.set(key, id);
  else if (typeof entry === 'string') {
    if (entry !== id) map.set(key, new Set([entry, id]));
  } else entry.add(id);
}

function remove(map: Map<string, string | Set<string>>, key: string, id: string): void {
  const entry = map.get(key);
  if (entry === undefined) return;
  if (typeof entry === 'string') {
    if (entry === id) map.delete(key);
    return;
  }
  entry.delete(id);
  if (entry.size === 1) map.set(key, entry.values().next().value as string);
  else if (entry.size === 0) map.delete(key);
}
