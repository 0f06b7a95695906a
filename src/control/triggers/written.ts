import { writtenLiteral } from '../../lib/written-numbers.js';

/**
 * A number of a trigger's `data` that its JSON text wrote with more than two decimals
 * (`"amount": 0.3000000000000000001`, which JSON.parse makes 0.3). The steps' bodies carry it as
 * it was written, so that the step's own validation judges the text and refuses it as the same
 * call from the merchant would be refused (with that step's status and detail).
 */
export class WrittenNumber {
  constructor(readonly text: string) {}
  /** A placeholder inside a path or a text: the number as written. */
  toString(): string {
    return this.text;
  }
}

/**
 * `data`, part of the request body `root`, with each number its text wrote with more than two
 * decimals as a WrittenNumber (a copy where there is one).
 */
export function keepWritten<T>(data: T, root: unknown): T {
  if (data === null || typeof data !== 'object') return data;
  let copy: Record<string | number, unknown> | undefined;
  for (const [name, value] of Object.entries(data)) {
    const key = Array.isArray(data) ? Number(name) : name;
    const literal = typeof value === 'number' ? writtenLiteral(data, key, root) : undefined;
    const kept = literal !== undefined ? new WrittenNumber(literal) : keepWritten(value, root);
    if (kept === value) continue;
    copy ??= (Array.isArray(data) ? [...data] : { ...data }) as Record<string | number, unknown>;
    copy[key] = kept;
  }
  return (copy ?? data) as T;
}

/** JSON.stringify's text of a step's body, but a WrittenNumber as it was written. */
export function bodyText(value: unknown): string | undefined {
  if (value instanceof WrittenNumber) return value.text;
  if (Array.isArray(value)) return `[${value.map((item) => bodyText(item) ?? 'null').join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members: string[] = [];
    for (const [key, item] of Object.entries(value)) {
      const text = bodyText(item);
      if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
    }
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}
