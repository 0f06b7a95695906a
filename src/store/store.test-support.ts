// Shared by the store tests (store.test.ts, file-persistence.test.ts, the random histories of
// store-model.test.ts and indexes.test.ts); not a test itself.
import fs from 'node:fs';
import type { Test } from 'tap';
import { collection } from './collection.js';
import { filePersistence, type FilePersistenceOptions } from './file-persistence.js';
import { listSegments, segmentPath } from './files.js';
import { memoryPersistence } from './persistence.js';
import { Store } from './store.js';

/**
 * The store and its file persistence, used directly (no HTTP): transactions, indexes, commit
 * listeners, and what the data directory holds across close, torn writes, damage, compaction
 * and a second owner.
 */

export interface Thing {
  id: string;
  color: string;
  tags?: string[];
  n: number;
  note?: unknown;
}
export interface Other {
  id: string;
  v: number;
}

export const Things = collection<Thing>('things', { byColor: (r) => r.color, byTag: (r) => r.tags });
export const Others = collection<Other>('others');
export const COLLECTIONS = [Things, Others] as never;

export const memoryStore = () => new Store(COLLECTIONS, memoryPersistence());

/** A memory store, opened. */
export async function openMemoryStore(): Promise<Store> {
  const store = memoryStore();
  await store.open();
  return store;
}

/**
 * A file-backed store on `dir`, opened (after `prepare`, which may declare watches as the
 * scheduler does); closed in teardown unless the test closes it.
 */
export function openFileStore(t: Test, dir: string, options: FilePersistenceOptions = {}, prepare?: (store: Store) => void) {
  const store = new Store(COLLECTIONS, filePersistence(dir, options));
  prepare?.(store);
  return opened(t, store);
}

/** Others o0 to o{count - 1}, each with v = its number, in one transaction. */
export function putOthers(store: Store, count: number): void {
  store.transaction((tx) => {
    for (let i = 0; i < count; i++) tx.put(Others, { id: `o${i}`, v: i });
  });
}

/** Opens `store`; closed in teardown unless the test closes it first (`closeOnce`). */
export async function opened(t: Test, store: Store) {
  await store.open();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await store.close();
  };
  t.teardown(close);
  return Object.assign(store, { closeOnce: close });
}

/** Every record of the store, by collection, sorted by id: the store's whole visible state. */
export function dump(store: Store) {
  const sorted = <T extends { id: string }>(records: Iterable<T>) => [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { things: sorted(store.all(Things)), others: sorted(store.all(Others)) };
}

export const ids = (records: readonly { id: string }[]) => records.map((r) => r.id);
export const journalBytes = (dir: string) => listSegments(dir).reduce((n, s) => n + fs.statSync(segmentPath(dir, s)).size, 0);
export const lastSegment = (dir: string) => segmentPath(dir, listSegments(dir).at(-1)!);

/** Writes some varied history: puts, updates, deletes, odd strings. */
export function writeHistory(store: Store, count = 20): void {
  for (let i = 0; i < count; i++) {
    store.transaction((tx) => {
      tx.put(Things, {
        id: `t${i}`,
        color: ['red', 'green', 'blue'][i % 3]!,
        tags: i % 2 ? ['odd', `x${i}`] : ['even'],
        n: i,
        note: { nested: [i, 'é ✓ 𝄞 \u202e', null] },
      });
      tx.put(Others, { id: `o${i}`, v: i * 10 });
    });
  }
  store.transaction((tx) => {
    tx.put(Things, { ...tx.get(Things, 't1')!, color: 'purple', n: 1001 });
    tx.delete(Things, 't2');
    tx.delete(Others, 'o3');
  });
}

/** A small deterministic generator (xorshift): the history of a failing seed can be replayed. */
export function random(seed: number) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  return { below: (n: number) => Math.floor(next() * n), pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]! };
}
