import type { StoredRecord } from '../store/collection.js';

/**
 * Whether a record belongs to a Source and mode, for any collection: by its own `source` and
 * `mode` fields, or, for a record without them, by an id keyed `source:mode:...` (or
 * `source:mode`). Reset and snapshots walk every collection with this, naming none.
 */
export function inScope(record: StoredRecord, slug: string, mode: string): boolean {
  const r = record as { source?: unknown; mode?: unknown; id: string };
  if (r.source !== undefined) return r.source === slug && r.mode === mode;
  const prefix = `${slug}:${mode}`;
  return r.id === prefix || r.id.startsWith(`${prefix}:`);
}

/** A counter of one Source and mode (`counter:<name>:<source>:<mode>`, invoice numbers), not one shared by all (payment ids). */
export function scopedCounter(id: string): boolean {
  return /:[^:]+:(test|live)$/.test(id);
}
