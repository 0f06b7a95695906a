import { parse as parseQuery } from 'node:querystring';
import polka from 'polka';

/**
 * The route table: which route answers a method and path, with its `:params`. polka's router
 * (`find`, no middleware chain) names the candidate routes; each is then confirmed segment by
 * segment, because payemu's rules are stricter than polka's matching, which ignores letter case.
 * The request is then run by the server directly, in the same turn: polka's handler loop would
 * add a promise and a `setImmediate` to every request. polka's `find` tries every route's
 * pattern in turn, so the routes are kept in one polka router per first segment and segment
 * count (`v1` and 3 for `/v1/payments/:reference`): a request tries a dozen patterns, not all
 * of them (the router was 6 % of a `GET /v1/payments/{reference}`). The rules are those
 * payemu's routes were always served by:
 * - letter case is exact (`/V1/sessions` is no route);
 * - one trailing slash is allowed (`/v1/sessions/`);
 * - a `:param` is one non-empty segment, percent-decoded (left as sent if it does not decode);
 * - where two routes match, the one listed first answers;
 * - `HEAD` is answered by the `GET` route.
 */
type Methods = Parameters<ReturnType<typeof polka>['find']>[0];

export interface RouteMatch<T> {
  value: T;
  params: Record<string, string>;
}

interface Entry<T> {
  /** A literal segment, or undefined where the pattern has a `:param`. */
  segments: (string | undefined)[];
  /** The parameter names, at their segment's index. */
  names: (string | undefined)[];
  value: T;
}

export class RouteTable<T> {
  /** First segment -> polka routers by segment count; each route's one handler is its entry. */
  private readonly routers = new Map<string, ReturnType<typeof polka>[]>();
  /** Every entry with its method, in the order added. */
  private readonly all: { method: string; entry: Entry<T> }[] = [];

  /** `pattern`: `/v1/payments/:reference`. */
  add(method: string, pattern: string, value: T): void {
    const parts = pattern.split('/').slice(1);
    const first = parts[0]!;
    if (first.startsWith(':')) throw new Error(`route ${pattern}: the first segment must be literal (routes are found by it)`);
    const entry: Entry<T> = {
      segments: parts.map((part) => (part.startsWith(':') ? undefined : part)),
      names: parts.map((part) => (part.startsWith(':') ? part.slice(1) : undefined)),
      value,
    };
    let byCount = this.routers.get(first);
    if (!byCount) this.routers.set(first, (byCount = []));
    const router = (byCount[parts.length] ??= polka());
    router.add(method as Methods, pattern, entry as never);
    this.all.push({ method, entry });
  }

  /** The route of `method` that serves `path` (a path alone, without its query), or undefined. */
  find(method: string, path: string): RouteMatch<T> | undefined {
    const segments = segmentsOf(path);
    if (!segments) return undefined;
    const router = this.routers.get(segments[0]!)?.[segments.length];
    if (!router) return undefined;
    const candidates = router.find(method as Methods, path).handlers as unknown as Entry<T>[];
    // Every candidate has as many segments as the path: that is the router it came from.
    for (const entry of candidates) {
      const params = matchEntry(entry, segments);
      if (params) return { value: entry.value, params };
    }
    return undefined;
  }

  /** The methods with a route for `path`, in the order of their routes: the `Allow` of a 405. */
  methodsFor(path: string): string[] {
    const segments = segmentsOf(path);
    if (!segments) return [];
    const methods = new Set<string>();
    for (const { method, entry } of this.all) {
      if (entry.segments.length === segments.length && matchEntry(entry, segments)) methods.add(method);
    }
    return [...methods];
  }
}

/** `/a/b/` -> ['a', 'b']; undefined for a path that is not absolute. */
function segmentsOf(path: string): string[] | undefined {
  if (path.charCodeAt(0) !== 47 /* / */) return undefined;
  const end = path.length > 1 && path.charCodeAt(path.length - 1) === 47 ? path.length - 1 : path.length;
  return path.slice(1, end).split('/');
}

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

function matchEntry<T>(entry: Entry<T>, segments: readonly string[]): Record<string, string> | undefined {
  const { segments: literal, names } = entry;
  for (let i = 0; i < literal.length; i++) {
    const expected = literal[i];
    if (expected === undefined ? segments[i] === '' : expected !== segments[i]) return undefined;
  }
  let params: Record<string, string> | undefined;
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    if (name !== undefined) (params ??= {})[name] = decodeSegment(segments[i]!);
  }
  return params ?? NO_PARAMS;
}

function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A request target split as the routes read it: the path, and the query string parsed. */
export interface Target {
  path: string;
  /** `?a=1`, or ''. */
  search: string;
  query: Record<string, unknown>;
}

/**
 * `/v1/payments?limit=2#x` -> path `/v1/payments`, search `?limit=2`, query `{limit: '2'}`
 * (node:querystring: a repeated name is an array, the object has no prototype); a fragment is
 * dropped.
 */
export function parseTarget(url: string): Target {
  let path = url;
  const hash = url.indexOf('#', 1);
  if (hash !== -1) path = url.slice(0, hash);
  const q = path.indexOf('?', 1);
  if (q === -1) return { path, search: '', query: {} };
  const search = path.slice(q);
  return { path: path.slice(0, q), search, query: search.length > 1 ? parseQuery(search.slice(1)) : {} };
}
