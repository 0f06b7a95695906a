/**
 * The JSON text of recent answers, kept per record: a read answered from one record alone (a
 * payment by its reference, with no `fields` or `include`) is serialized once per version of
 * that record instead of on every request. A write never changes a stored record: it stores a
 * new object (store.ts), so a new version is a miss, and the old one ages out. The answer holds
 * links, so the base URL is part of the key. Bounded: the most recent `size` records only.
 */
export class AnswerCache {
  private readonly answers = new Map<object, { base: string; json: string }>();

  constructor(private readonly size = 64) {}

  /** The JSON of `make()` for `record` (and `base`), made on a miss. */
  json(record: object, base: string, make: () => unknown): string {
    const hit = this.answers.get(record);
    if (hit !== undefined && hit.base === base) return hit.json;
    const json = JSON.stringify(make());
    if (hit === undefined && this.answers.size >= this.size) this.answers.delete(this.answers.keys().next().value!);
    this.answers.set(record, { base, json });
    return json;
  }
}
