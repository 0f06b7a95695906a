import type { IndexKey } from './collection.js';

/**
 * The ids an index holds under each of its keys: one id as a string (most keys, a reference or an
 * owner's id, have one record), more as a Set in the order they came. The store's indexes
 * (indexes.ts) and a transaction's index of its own writes (transaction.ts) both keep theirs so.
 */
export type KeyIds = Map<string, Ids>;

/** The ids under one key: the bare id when it is one. */
export type Ids = string | Set<string>;

/** A record's index key as a list: none, one, or the several it is listed under. */
export function keysOf(key: IndexKey): readonly string[] {
  if (key === undefined) return [];
  return typeof key === 'string' ? [key] : key;
}

export function addId(map: KeyIds, key: string, id: string): void {
  const entry = map.get(key);
  if (entry === undefined) map.set(key, id);
  else if (typeof entry === 'string') {
    if (entry !== id) map.set(key, new Set([entry, id]));
  } else entry.add(id);
}

/** Whether `id` is among `ids`. */
export const holds = (ids: Ids | undefined, id: string): boolean => (typeof ids === 'string' ? ids === id : ids?.has(id) === true);

export function removeId(map: KeyIds, key: string, id: string): void {
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

/** Moves `id` from the keys of `old` to those of `now`; under a key both name it stays where it is. */
export function moveId(map: KeyIds, id: string, old: IndexKey, now: IndexKey): void {
  if (typeof old !== 'object' && typeof now !== 'object') {
    // One key (or none) before and after, the usual case: no arrays to build.
    if (old === now) return;
    if (old !== undefined) removeId(map, old, id);
    if (now !== undefined) addId(map, now, id);
    return;
  }
  const before = keysOf(old);
  const after = keysOf(now);
  for (const key of before) if (!after.includes(key)) removeId(map, key, id);
  for (const key of after) if (!before.includes(key)) addId(map, key, id);
}
