import { parseBound } from '../clock/format.js';
import { documentParameters, fieldsOf, parseDocumentParams, type DocumentQuery, type ResourceShape } from './document-query.js';
import { Unprocessable } from './errors.js';
import type { QueryParameterDoc } from './route.js';

/**
 * JSON:API list parameters: `filter[...]`, `sort`,
 * `page[size]` (1..100, default 15), `page[number]`, and `fields[<type>]` as on single
 * resources (document-query.ts). Anything unknown among them is a 422 naming the parameter;
 * other query parameters are ignored. The spec is also the shape of the listed type.
 */
export interface ListSpec<T> extends ResourceShape {
  filters: Record<string, Filter<T>>;
  sorts: Record<string, (record: T) => number | string>;
  /** The id comparison used to break ties. */
  id: (record: T) => number | string;
}

export type Filter<T> =
  | { kind: 'enum'; values: readonly string[]; get: (record: T) => string }
  | { kind: 'text'; get: (record: T) => string | undefined; caseInsensitive?: boolean }
  | { kind: 'after' | 'before'; get: (record: T) => number };

export interface ListQuery<T> {
  predicates: ((record: T) => boolean)[];
  sort: { key: (record: T) => number | string; descending: boolean }[];
  size: number;
  number: number;
  /** `fields[<listed type>]`, or undefined for the list's usual attributes. */
  fields: readonly string[] | undefined;
  document: DocumentQuery;
}

export function parseListQuery<T>(query: Record<string, unknown>, spec: ListSpec<T>): ListQuery<T> {
  const errors: Record<string, string[]> = {};
  const fail = (param: string, message: string) => (errors[param] ??= []).push(message);
  const predicates: ((record: T) => boolean)[] = [];

  for (const [param, raw] of Object.entries(query)) {
    const bracket = /^(filter|page)\[([^\]]*)\]$/.exec(param);
    if (!bracket && !['filter', 'page'].includes(param)) continue;
    if (Array.isArray(raw)) {
      fail(param, `The ${param} parameter must be given once.`);
      continue;
    }
    const value = String(raw ?? '');
    if (!bracket) fail(param, `Use ${param}[<name>]=<value>.`);
    else if (bracket[1] === 'filter') {
      // Own names only: `filter[constructor]` must not find Object.prototype's.
      const filter = Object.hasOwn(spec.filters, bracket[2]!) ? spec.filters[bracket[2]!] : undefined;
      if (!filter) fail(param, `Unknown filter "${bracket[2]}". Filters: ${Object.keys(spec.filters).join(', ')}.`);
      else {
        const predicate = predicateOf(filter, value, (message) => fail(param, message));
        if (predicate) predicates.push(predicate);
      }
    } else if (bracket[2] !== 'size' && bracket[2] !== 'number') fail(param, `Unknown page parameter; use page[size] and page[number].`);
  }

  const size = integerParam(query['page[size]'], 15, 1, 100, 'page[size]', fail);
  const number = integerParam(query['page[number]'], 1, 1, Number.MAX_SAFE_INTEGER, 'page[number]', fail);
  const sort = parseSort(query.sort, spec, fail);
  const document = parseDocumentParams(query, spec, fail);

  if (Object.keys(errors).length > 0) {
    const first = Object.values(errors)[0]![0]!;
    throw new Unprocessable(first, errors);
  }
  return { predicates, sort, size, number, fields: fieldsOf(document, spec.type), document };
}

function predicateOf<T>(filter: Filter<T>, value: string, fail: (message: string) => void): ((record: T) => boolean) | undefined {
  switch (filter.kind) {
    case 'enum': {
      const wanted = filter.values.find((v) => v.toLowerCase() === value.toLowerCase());
      if (!wanted) return void fail(`Must be one of: ${filter.values.join(', ')}.`);
      return (record) => filter.get(record) === wanted;
    }
    case 'text': {
      if (filter.caseInsensitive) {
        const wanted = value.toLowerCase();
        return (record) => filter.get(record)?.toLowerCase() === wanted;
      }
      return (record) => filter.get(record) === value;
    }
    default: {
      const bound = parseBound(value);
      if (bound === undefined) return void fail('Must be an ISO 8601 date (YYYY-MM-DD) or timestamp.');
      // Both bounds are exclusive, and exact to the microsecond (and past it): see parseBound.
      const { floor, ceil } = bound;
      return filter.kind === 'after' ? (record) => filter.get(record) > floor : (record) => filter.get(record) < ceil;
    }
  }
}

function integerParam(raw: unknown, fallback: number, min: number, max: number, name: string, fail: (param: string, message: string) => void): number {
  if (raw === undefined || Array.isArray(raw)) return fallback;
  const text = String(raw).trim();
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value)) fail(name, `The ${name} parameter must be an integer.`);
  else if (value < min || value > max)
    fail(name, max === Number.MAX_SAFE_INTEGER ? `The ${name} parameter must be at least ${min}.` : `The ${name} parameter must be between ${min} and ${max}.`);
  else return value;
  return fallback;
}

/** The order of a list given no `sort`: the newest first. */
const DEFAULT_SORT = '-created_at';

function parseSort<T>(raw: unknown, spec: ListSpec<T>, fail: (param: string, message: string) => void): ListQuery<T>['sort'] {
  const text = raw === undefined ? DEFAULT_SORT : Array.isArray(raw) ? '' : String(raw);
  const keys = text.split(',').map((k) => k.trim());
  const sort: ListQuery<T>['sort'] = [];
  for (const key of keys) {
    const descending = key.startsWith('-');
    const name = descending ? key.slice(1) : key;
    const get = Object.hasOwn(spec.sorts, name) ? spec.sorts[name] : undefined;
    if (!get) {
      fail('sort', `The sort parameter must be one of ${Object.keys(spec.sorts).join(', ')}, each optionally prefixed with "-".`);
      return [];
    }
    sort.push({ key: get, descending });
  }
  return sort;
}

/** Filters, sorts (ties by id, in the first key's direction) and cuts the page. */
export function runListQuery<T>(records: Iterable<T>, query: ListQuery<T>, spec: ListSpec<T>): { page: T[]; total: number; lastPage: number } {
  const matching: T[] = [];
  outer: for (const record of records) {
    for (const predicate of query.predicates) if (!predicate(record)) continue outer;
    matching.push(record);
  }
  const tieDescending = query.sort[0]?.descending ?? true;
  matching.sort((a, b) => {
    for (const { key, descending } of query.sort) {
      const order = compare(key(a), key(b));
      if (order !== 0) return descending ? -order : order;
    }
    const order = compare(spec.id(a), spec.id(b));
    return tieDescending ? -order : order;
  });
  const total = matching.length;
  const lastPage = Math.max(1, Math.ceil(total / query.size));
  const start = (query.number - 1) * query.size;
  return { page: matching.slice(start, start + query.size), total, lastPage };
}

function compare(a: number | string, b: number | string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `links` and `meta` of a list answer. */
export function listEnvelope(baseUrl: string, path: string, query: Record<string, unknown>, list: { total: number; lastPage: number }, q: ListQuery<unknown>) {
  const link = (page: number) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (key !== 'page[number]' && typeof value === 'string') params.set(key, value);
    params.set('page[number]', String(page));
    return `${baseUrl}${path}?${params.toString()}`;
  };
  return {
    links: {
      first: link(1),
      last: link(list.lastPage),
      prev: q.number > 1 ? link(Math.min(q.number - 1, list.lastPage)) : null,
      next: q.number < list.lastPage ? link(q.number + 1) : null,
    },
    meta: { current_page: q.number, last_page: list.lastPage, per_page: q.size, total: list.total },
  };
}

/** The parameters of a list: `filter[...]`, `sort`, `page[size]`, `page[number]`, and those of documentParameters. */
export function listParameters<T>(spec: ListSpec<T>): QueryParameterDoc[] {
  const filters: QueryParameterDoc[] = Object.entries(spec.filters).map(([name, filter]) => ({
    name: `filter[${name}]`,
    ...(filter.kind === 'enum'
      ? { description: 'Any letter case.', schema: { type: 'string', enum: filter.values } }
      : filter.kind === 'text'
        ? { description: 'An exact match.', schema: { type: 'string' } }
        : { description: `Created ${filter.kind} this ISO 8601 date or timestamp (exclusive).`, schema: { type: 'string' } }),
  }));
  // The keys parseSort takes: each sort's name, ascending or with `-` descending.
  const sorts = Object.keys(spec.sorts).flatMap((name) => [name, `-${name}`]);
  return [
    ...filters,
    {
      name: 'sort',
      description: `Comma-separated keys, each ascending or with \`-\` descending (ties: by id, in the first key's direction). Default \`${DEFAULT_SORT}\`.`,
      schema: { type: 'array', minItems: 1, items: { type: 'string', enum: sorts }, default: [DEFAULT_SORT] },
      explode: false,
    },
    { name: 'page[size]', description: 'Results per page, 1 to 100 (default 15).', schema: { type: 'integer', minimum: 1, maximum: 100 } },
    { name: 'page[number]', description: 'The page, from 1.', schema: { type: 'integer', minimum: 1 } },
    ...documentParameters(spec),
  ];
}
