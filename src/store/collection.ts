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
  /** Phantom field that carries the record type; never set. */
  readonly __type?: T;
}

export function collection<T extends StoredRecord>(name: string, indexes: Record<string, (record: T) => IndexKey> = {}): Collection<T> {
  return { name, indexes };
}

/** One change to the store: a record written whole, or deleted (`record: null`). */
export interface Change {
  collection: string;
  id: string;
  record: StoredRecord | null;
}
