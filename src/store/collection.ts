/**
 * A collection is a named set of records with an `id`, plus secondary indexes declared as
 * functions from a record to its key (or keys). Resources declare their collections beside
 * their code; the store is generic.
 */
export interface StoredRecord {
  readonly id: string;
}

export type IndexKey = string | readonly string[] | undefined;

export interface Collection<T extends StoredRecord> {
  readonly name: string;
  readonly indexes: Readonly<Record<string, (record: T) => IndexKey>>;
  /**
   * A record as it was read from the files or a snapshot document, in this version's shape: a
   * collection whose stored shape changed reads records older versions wrote through it (it
   * returns a record of this version as it is). Records the code writes never pass through it.
   */
  readonly upgrade?: (record: StoredRecord) => T;
  /**
   * The JSON Schema of a stored record (see record-schema.ts): what every record the code writes
   * is, and what a record read from a snapshot document must be (after `upgrade`), so that no
   * imported record can make payemu loop, hang or fail a read.
   */
  readonly schema?: Readonly<Record<string, unknown>>;
  /**
   * The rules between a stored record's fields that its schema cannot say (a fault that does
   * something, a script not used up): the first one `record` breaks, as `[field, message]`, or
   * undefined. Run on a snapshot document's records once they passed `schema`; the code never
   * writes a record that breaks one.
   */
  readonly check?: (record: T) => [field: string, message: string] | undefined;
  /** Phantom field that carries the record type; never set. */
  readonly __type?: T;
}

export function collection<T extends StoredRecord>(
  name: string,
  indexes: Record<string, (record: T) => IndexKey> = {},
  upgrade?: (record: StoredRecord) => T,
  schema?: Readonly<Record<string, unknown>>,
  check?: (record: T) => [field: string, message: string] | undefined,
): Collection<T> {
  return { name, indexes, ...(upgrade ? { upgrade } : {}), ...(schema ? { schema } : {}), ...(check ? { check } : {}) };
}

/** One change to the store: a record written whole, or deleted (`record: null`). */
export interface Change {
  collection: string;
  id: string;
  record: StoredRecord | null;
  /**
   * Only on a change read from the journal that rewrote a record in part (see files.ts):
   * `record` then holds the fields that changed, to lay over the record as it was, and these
   * are the fields it no longer has.
   */
  removed?: readonly string[];
  /**
   * Only on a write of a record that its transaction deleted first: it is committed last in
   * its collection's order (and indexes), as a delete and a write in two transactions would
   * leave it, and the journal writes it as both (files.ts). An import of everything deletes
   * every record and writes the document's: the records then stand in the document's order,
   * whatever the store held before.
   */
  recreated?: true;
}

/** What each of a transaction's changes replaces in memory, by position: a record, the index of one kept unparsed (RawRecords), or nothing. */
export type Replaced = readonly (StoredRecord | number | undefined)[];

/** A partial change whose record no earlier line, nor the snapshot, holds: the files were damaged. */
export class MissingBase extends Error {
  constructor(change: Change) {
    super(`rewrites part of ${change.collection} record ${change.id}, which nothing before it holds`);
  }
}

/**
 * The record a partial change (`removed` set) makes of `base`: its fields in their order,
 * without the removed ones, with the changed ones laid over them (new ones last).
 */
export function patched(base: StoredRecord | undefined, change: Change): StoredRecord {
  if (base === undefined) throw new MissingBase(change);
  const record: Record<string, unknown> = {};
  const removed = change.removed!;
  for (const key in base) if (!removed.includes(key)) record[key] = (base as unknown as Record<string, unknown>)[key];
  const fields = change.record as unknown as Record<string, unknown>;
  for (const key in fields) record[key] = fields[key];
  return record as unknown as StoredRecord;
}
