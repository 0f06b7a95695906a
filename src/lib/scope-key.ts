/**
 * A key's mode. Declared here, with the scope it is half of, and re-exported by config/types.ts:
 * the config imports src/lib/ (faults, validators), so src/lib/ does not import the config.
 */
export type Mode = 'test' | 'live';

const keys: Record<Mode, Map<string, string>> = { test: new Map(), live: new Map() };

/**
 * `source:mode`, the key of the `scope` indexes. One string per Source and mode, made once:
 * index keys are computed on every write (a year of billing writes millions of times), and a
 * fresh string each time would be garbage to collect, or memory to keep.
 */
export function scopeKey(source: string, mode: Mode): string {
  const bySource = keys[mode];
  let key = bySource.get(source);
  if (key === undefined) bySource.set(source, (key = `${source}:${mode}`));
  return key;
}

/** The `scope` index of a collection whose records belong to one Source and mode. */
export const byScope = (record: { source: string; mode: Mode }): string => scopeKey(record.source, record.mode);
