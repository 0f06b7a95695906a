import { Unprocessable } from '../http/errors.js';
import { compileRecord } from '../http/validation.js';
import { toFieldErrors } from '../lib/schemas.js';
import type { Collection, StoredRecord } from '../store/collection.js';

/**
 * Each record of a snapshot document is held to the rules of the records payemu writes itself:
 * its collection's `schema` (src/store/record-schema.ts), read after `upgrade` (a document an
 * older version wrote holds its records in that version's shape). Types, enums, ranges (time
 * stamps within years 1970 to 9999, counts and counters below 2^31, amounts within the API's
 * limits, `interval_count` from 1), then its collection's `check` (the rules between fields: a
 * fault that does something, a script not used up): a record that passes cannot make a read
 * fail, an advance fail, or the billing date computation loop, nor show what payemu never would. The validators are compiled as a body's are
 * (http/validation.ts: built by `npm run build`, or on first use).
 */

/**
 * Throws the 422 of the first record of `def` that is not what payemu writes: `meta.errors`
 * keyed by the field's path in the document (`data.recurring_payments.0.interval_count`). `path`
 * is the record's path (`data.<collection>.<index>`), or makes it. Returns the record in this
 * version's shape (after `upgrade`).
 */
export function checkStoredRecord(def: Collection<StoredRecord>, record: StoredRecord, path: string | (() => string)): StoredRecord {
  if (!def.schema) return def.upgrade ? def.upgrade(record) : record;
  // The path is made only for a refusal (a snapshot's 100,000 records pass).
  const where = () => (typeof path === 'string' ? path : path());
  let upgraded: StoredRecord;
  try {
    upgraded = def.upgrade ? def.upgrade(record) : record;
  } catch {
    const at = where();
    throw refusal({ [at]: [`${at} is not a record of ${def.name} payemu can read.`] });
  }
  const validate = compileRecord(def.schema);
  if (validate(upgraded)) {
    const problem = def.check?.(upgraded);
    if (problem) {
      const at = where();
      throw refusal({ [`${at}.${problem[0]}`]: [problem[1].replace(`The ${problem[0]} field`, `The ${at}.${problem[0]} field`)] });
    }
    return upgraded;
  }
  const at = where();
  const errors: Record<string, string[]> = Object.create(null);
  for (const [field, messages] of Object.entries(toFieldErrors(validate))) {
    const path = field === 'body' ? at : `${at}.${field}`;
    errors[path] = messages.map((m) => m.replace(`The ${field} field`, `The ${path} field`));
  }
  throw refusal(errors);
}

function refusal(errors: Record<string, string[]>): Unprocessable {
  const first = Object.values(errors)[0]?.[0] ?? 'a record is invalid.';
  return new Unprocessable(`This is not a snapshot payemu can import: ${first}`, errors);
}

/** Collections whose ids are drawn from a counter, and that counter's meta record. */
const COUNTED: readonly [collection: string, counter: string][] = [
  ['payments', 'counter:payments'],
  ['payment_links', 'counter:payment_links'],
];

/**
 * Throws the 422 of a snapshot whose id counter stands below an id it holds (or is missing while
 * records of its collection are there): the next id drawn would be one already used, and the new
 * record would take the place of an acknowledged one. Run once the records themselves passed.
 */
export function checkCounters(data: Record<string, unknown[]>): void {
  const meta = (data.meta ?? []) as { id: string; value?: number }[];
  for (const [collection, counter] of COUNTED) {
    const records = (data[collection] ?? []) as StoredRecord[];
    if (records.length === 0) continue;
    let highest = 0;
    for (const record of records) highest = Math.max(highest, Number(record.id));
    const index = meta.findIndex((r) => r.id === counter);
    const value = index >= 0 ? meta[index]!.value : undefined;
    if (value !== undefined && value >= highest) continue;
    const field = index >= 0 ? `data.meta.${index}.value` : 'data.meta';
    const message =
      index >= 0
        ? `The ${field} field ("${counter}") must be at least ${highest}, the highest id in ${collection}: the next id would be one already used.`
        : `The ${field} field must hold the counter "${counter}" (at least ${highest}, the highest id in ${collection}).`;
    throw refusal({ [field]: [message] });
  }
}
