import type { IncomingMessage, ServerResponse } from 'node:http';
import { formatTimestamp, parseTimestamp } from '../clock/format.js';
import type { Mode } from '../config/types.js';
import { newId } from '../lib/ids.js';
import { REQUEST_METHOD, REQUEST_STATUS } from '../lib/request-filter.js';
import { scopeKey } from '../lib/scope-key.js';
import { captureBodies, type BodyCapture } from './body-capture.js';
import { Unprocessable } from './errors.js';
import { faultOf } from './request-note.js';
import { cutDeeperThan } from './json-depth.js';

/** Requests kept per Source and mode unless `--journal-size` says otherwise. */
export const DEFAULT_JOURNAL_SIZE = 1000;

/** A body longer than this (in bytes) is kept cut, as a string (see `cutText`). */
export const BODY_KEEP_BYTES = 16 * 1024;

/** A JSON body nested deeper than this is kept cut (see `cutDeep`): 64, as deep as a request body may be. */
export const BODY_KEEP_DEPTH = 64;

/** What stands, in a kept body, for a value nested deeper than `BODY_KEEP_DEPTH` levels. */
export const DEEP_MARKER = `…[cut: nested deeper than ${BODY_KEEP_DEPTH} levels]`;

/** One request as `GET /_payemu/requests` shows it. */
export interface RequestEntryView {
  id: string;
  at: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** null when the connection closed before an answer was sent. */
  status: number | null;
  duration_ms: number;
  idempotency_key: string | null;
  replayed: boolean;
  fault: string | null;
  request_body: unknown;
  response_body: unknown;
  /** The body was cut: over 16 KiB (then text) or nested deeper than 64 levels (then with markers). */
  request_body_cut: boolean;
  response_body_cut: boolean;
}

/** What the list filters on, parsed (see `parseRequestFilter`). */
export interface RequestFilter {
  method?: string;
  path?: RegExp;
  status?: { exact: number } | { class: number };
  /** Exclusive: entries strictly after this virtual time (epoch ms). */
  since?: number;
  limit: number;
}

/** The filter as it arrives (a query string, or the library's object). */
export interface RequestFilterInput {
  method?: unknown;
  path?: unknown;
  status?: unknown;
  since?: unknown;
  limit?: unknown;
}

/**
 * What is kept of a request: the view's fields but the id (drawn when the entry is first shown),
 * the time as epoch ms and the bodies as kept text (see `kept`): fixed when the request is
 * answered, JSON that parses to at most 64 levels or a string shown as it is.
 */
interface Entry extends Omit<RequestEntryView, 'id' | 'at' | 'request_body' | 'response_body' | 'request_body_cut' | 'response_body_cut'> {
  id: string | undefined;
  at: number;
  /** The request body's kept text, or undefined when none was read. */
  request: string | undefined;
  /** The kept text is JSON (nested at most 64 levels), shown parsed; otherwise it is shown as text. */
  requestJson: boolean;
  requestCut: boolean;
  response: string | undefined;
  responseJson: boolean;
  responseCut: boolean;
  /** The view, made on first read: bodies are parsed when asked for, not on the request's path. */
  view: RequestEntryView | undefined;
}

/** A bounded ring of entries, oldest overwritten first. */
class Ring {
  private readonly items: (Entry | undefined)[] = [];
  private next = 0;

  constructor(private readonly capacity: number) {}

  get count(): number {
    return this.items.length;
  }

  push(entry: Entry): void {
    this.items[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
  }

  /** Newest first. */
  *newestFirst(): Generator<Entry> {
    const n = this.items.length;
    for (let i = 1; i <= n; i++) {
      const entry = this.items[(this.next - i + n) % n];
      if (entry) yield entry;
    }
  }
}

/** A request being recorded: `end()` once its answer is sent (or the connection closed). */
export interface Recording {
  end(): void;
}

/**
 * One request being recorded. It is also the request's body capture (body-capture.ts): the
 * pipeline writes the bodies into it as it reads and answers them. One object a request, no
 * closures: it sits on every /v1 request's path.
 */
class Pending implements Recording, BodyCapture {
  requestRaw?: Buffer = undefined;
  requestText?: string = undefined;
  requestJson?: boolean = undefined;
  response?: string = undefined;
  // Real time, for the duration only (the entry's `at` is the virtual clock's).
  private readonly started = performance.now();

  constructor(
    private readonly rings: Map<string, Ring>,
    private readonly size: number,
    private readonly source: string,
    private readonly mode: Mode,
    private readonly req: IncomingMessage & { path?: string; query?: Record<string, unknown> },
    private readonly res: ServerResponse,
    private readonly at: number,
  ) {}

  end(): void {
    const { req, res } = this;
    const request = keptRequest(this);
    const response = this.response === undefined ? undefined : kept(keep(this.response), true);
    const key = req.headers['idempotency-key'];
    // The ring is looked up now: a reset of the scope while the request ran starts a new one.
    ringOf(this.rings, this.size, this.source, this.mode).push({
      id: undefined,
      at: this.at,
      method: req.method ?? '',
      path: req.path ?? req.url ?? '',
      query: (req.query ?? {}) as Record<string, string | string[]>,
      status: res.headersSent ? res.statusCode : null,
      duration_ms: Math.round(performance.now() - this.started),
      idempotency_key: (Array.isArray(key) ? key[0] : key) ?? null,
      replayed: res.getHeader('idempotent-replayed') === 'true',
      fault: faultOf(req),
      request: request?.text,
      requestJson: request?.json ?? false,
      requestCut: request?.cut ?? false,
      response: response?.text,
      responseJson: response?.json ?? false,
      responseCut: response?.cut ?? false,
      view: undefined,
    });
  }
}

/**
 * The request journal: the last `size` `/v1` requests of each Source and mode, in memory only
 * (a restart or a reset of the scope empties it). Recording is kept cheap because it sits on
 * every request's path: the bodies are the text the pipeline already read and the string it
 * already wrote (body-capture.ts), cut at 16 KiB and at 64 levels of nesting when the request is
 * answered (so that no entry can make a read fail), and parsed only when someone reads the list;
 * an entry's id is drawn when the list first shows it.
 * No header is kept but `Idempotency-Key`, so keys (`Authorization`, `X-API-Key`) never are.
 */
export class RequestJournal {
  private readonly rings = new Map<string, Ring>();

  constructor(readonly size: number = DEFAULT_JOURNAL_SIZE) {}

  /** Starts recording `req` of the authenticated scope; `now` is the virtual time it arrived. */
  start(req: IncomingMessage & { path?: string; query?: Record<string, unknown> }, res: ServerResponse, source: string, mode: Mode, now: number): Recording {
    if (this.size === 0) return NOTHING;
    return captureBodies(req, res, new Pending(this.rings, this.size, source, mode, req, res, now));
  }

  /** The scope's entries that match, newest first, at most `filter.limit`; `total` counts every match. */
  list(source: string, mode: Mode, filter: RequestFilter): { requests: RequestEntryView[]; total: number } {
    const requests: RequestEntryView[] = [];
    let total = 0;
    const ring = this.rings.get(scopeKey(source, mode));
    if (!ring) return { requests, total };
    for (const entry of ring.newestFirst()) {
      if (!matches(entry, filter)) continue;
      total++;
      if (requests.length < filter.limit) requests.push((entry.view ??= present(entry)));
    }
    return { requests, total };
  }

  /** Empties one scope's journal, or every one; answers how many entries it held. */
  clear(scope?: { source: string; mode: Mode }): number {
    const rings = scope ? [scopeKey(scope.source, scope.mode)] : [...this.rings.keys()];
    let removed = 0;
    for (const key of rings) {
      removed += this.rings.get(key)?.count ?? 0;
      this.rings.delete(key);
    }
    return removed;
  }
}

/** The scope's ring, made on first use. */
function ringOf(rings: Map<string, Ring>, size: number, source: string, mode: Mode): Ring {
  const key = scopeKey(source, mode);
  let ring = rings.get(key);
  if (!ring) rings.set(key, (ring = new Ring(size)));
  return ring;
}

const NOTHING: Recording = { end: () => {} };

function matches(entry: Entry, filter: RequestFilter): boolean {
  if (filter.since !== undefined && entry.at <= filter.since) return false;
  if (filter.method !== undefined && entry.method !== filter.method) return false;
  if (filter.status) {
    if (entry.status === null) return false;
    if ('exact' in filter.status ? entry.status !== filter.status.exact : Math.floor(entry.status / 100) !== filter.status.class) return false;
  }
  if (filter.path && !filter.path.test(entry.path)) return false;
  return true;
}

function present(entry: Entry): RequestEntryView {
  return {
    id: (entry.id ??= newId('req_')),
    at: formatTimestamp(entry.at),
    method: entry.method,
    path: entry.path,
    query: entry.query,
    status: entry.status,
    duration_ms: entry.duration_ms,
    idempotency_key: entry.idempotency_key,
    replayed: entry.replayed,
    fault: entry.fault,
    request_body: body(entry.request, entry.requestJson),
    response_body: body(entry.response, entry.responseJson),
    request_body_cut: entry.requestCut,
    response_body_cut: entry.responseCut,
  };
}

/** JSON as sent or answered; a body that is not JSON, or was cut at 16 KiB, as its text. */
function body(text: string | undefined, json: boolean): unknown {
  if (text === undefined) return null;
  if (!json) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A body as the journal keeps it: its text, whether to show it parsed, whether it was cut. */
interface Kept {
  text: string;
  json: boolean;
  cut: boolean;
}

function keptRequest(capture: BodyCapture): Kept | undefined {
  const raw = capture.requestRaw;
  if (raw === undefined || raw.length === 0) return undefined;
  if (raw.length > BODY_KEEP_BYTES) return { text: cutText(raw), json: false, cut: true };
  return kept({ text: capture.requestText ?? raw.toString('utf8'), cut: false }, capture.requestJson === true);
}

/**
 * What is kept of a body of at most 16 KiB, or of one cut at 16 KiB (kept as text): JSON nested
 * deeper than 64 levels is kept cut at 64 (`cutDeep`), or as its text when it does not parse
 * once cut. So a kept JSON text parses to at most 64 levels, which whatever reads the journal
 * (JSON.stringify, structuredClone, the dashboard) walks without overflowing the stack.
 */
function kept(body: { text: string; cut: boolean }, json: boolean): Kept {
  if (!json || body.cut) return { text: body.text, json: false, cut: body.cut };
  const shallow = cutDeep(body.text);
  if (shallow === undefined) return { text: body.text, json: true, cut: false };
  try {
    JSON.parse(shallow);
    return { text: shallow, json: true, cut: true };
  } catch {
    return { text: body.text, json: false, cut: false };
  }
}

const DEEP_MARKER_JSON = JSON.stringify(DEEP_MARKER);

/**
 * JSON text with each object or array that opens deeper than 64 levels replaced by the string
 * DEEP_MARKER (`[[...[1]...]]` 70 deep: 64 arrays, the innermost `["…[cut: nested deeper than 64
 * levels]"]`); undefined when nothing is that deep.
 */
const cutDeep = (text: string) => cutDeeperThan(text, BODY_KEEP_DEPTH, DEEP_MARKER_JSON);

function keep(text: string): { text: string; cut: boolean } {
  // A UTF-16 unit is at most 3 UTF-8 bytes: short text needs no counting.
  if (text.length * 3 <= BODY_KEEP_BYTES || Buffer.byteLength(text) <= BODY_KEEP_BYTES) return { text, cut: false };
  return { text: cutText(Buffer.from(text)), cut: true };
}

/**
 * A body over 16 KiB: its first 16,384 bytes as text (a character split at the cut dropped),
 * then `…[cut: N bytes]`, N the whole body's size. A copy: the kept string holds no reference to
 * the whole body.
 */
function cutText(bytes: Buffer): string {
  const head = bytes
    .subarray(0, BODY_KEEP_BYTES)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return `${head}…[cut: ${bytes.length} bytes]`;
}

/**
 * Parses and checks the list's filter; a bad value is a 422 naming the parameter.
 * `path` takes `*` for one segment and `**` for the rest; `status` a code (`422`) or a class (`4xx`).
 */
export function parseRequestFilter(input: RequestFilterInput, maxLimit = 1000): RequestFilter {
  const filter: RequestFilter = { limit: 100 };
  const text = (name: keyof RequestFilterInput): string | undefined => {
    const value = input[name];
    if (value === undefined || value === '') return undefined;
    if (typeof value === 'number' && (name === 'status' || name === 'limit')) return String(value);
    if (typeof value !== 'string') throw Unprocessable.field(name, `The ${name} parameter must be given once, as text.`);
    return value;
  };
  const method = text('method');
  if (method !== undefined) {
    if (!REQUEST_METHOD.test(method)) throw Unprocessable.field('method', 'The method parameter must be an HTTP method, such as POST.');
    filter.method = method.toUpperCase();
  }
  const path = text('path');
  if (path !== undefined) {
    if (!path.startsWith('/')) throw Unprocessable.field('path', 'The path parameter must start with /, such as /v1/payments/*/refunds.');
    filter.path = pathPattern(path);
  }
  const status = text('status');
  if (status !== undefined) {
    const match = REQUEST_STATUS.exec(status);
    if (!match) throw Unprocessable.field('status', 'The status parameter must be a status code (422) or a class (4xx).');
    filter.status = /^\d\d$/.test(match[2]!) ? { exact: Number(status) } : { class: Number(match[1]) };
  }
  const since = text('since');
  if (since !== undefined) {
    const ms = parseTimestamp(since);
    if (ms === undefined) throw Unprocessable.field('since', 'The since parameter must be an ISO 8601 timestamp, such as 2026-11-21T10:00:00.000000Z.');
    filter.since = ms;
  }
  const limit = text('limit');
  if (limit !== undefined) {
    const n = Number(limit);
    if (!/^\d+$/.test(limit) || n < 1 || n > maxLimit) throw Unprocessable.field('limit', `The limit parameter must be an integer from 1 to ${maxLimit}.`);
    filter.limit = n;
  }
  return filter;
}

/** `/v1/payments/*\/refunds` -> a regex: `*` one segment, `**` the rest (one segment or more). */
function pathPattern(glob: string): RegExp {
  const source = glob
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.+' : part === '*' ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}
