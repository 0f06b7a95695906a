import type { PayemuClient } from '../client/client.js';
import type { RequestFilter, RequestView } from '../client/types.js';
import { formatTimestamp, parseTimestamp } from '../clock/format.js';
import { Timers } from '../clock/timers.js';
import { type ConnectOptions, connect } from './client.js';
import { CliError, EXIT } from './errors.js';
import { output, type Output } from './output.js';

export interface RequestsOptions extends ConnectOptions {
  method?: string;
  path?: string;
  status?: string;
  limit?: number;
  follow?: boolean;
  json?: boolean;
}

/** How often `--follow` asks for new requests (real time). */
const POLL_MS = 250;

/** `payemu requests`: the request journal, newest first; `--follow` prints new requests as they come. */
export async function list(options: RequestsOptions): Promise<void> {
  if (options.follow && options.limit !== undefined)
    throw new CliError('requests --follow prints every new request: it takes no --limit. See `payemu requests --help`.', EXIT.usage);
  const client = connect(options);
  const out = output(options);
  const filter: RequestFilter = { method: options.method, path: options.path, status: options.status };
  if (options.follow) return follow(client, out, filter);
  const { requests, total } = await client.requests({ ...filter, limit: options.limit });
  if (out.json) return out.line(JSON.stringify({ requests, total }));
  if (requests.length === 0) return out.line(total === 0 ? 'no requests yet' : `no requests (${total} match)`);
  const rows = requests.map(cells);
  const widths = columnWidths(rows);
  for (const row of rows) out.line(describe(row, widths, out));
  if (total > requests.length) out.line(out.c.dim(`(${requests.length} of ${total}; --limit shows more)`));
}

/** `payemu requests clear`: empties the journal of the key's Source and mode. */
export async function clear(options: RequestsOptions): Promise<void> {
  const out = output(options);
  const result = await connect(options).clearRequests();
  out.result(result, () => `cleared ${result.removed} request${result.removed === 1 ? '' : 's'}`);
}

interface Cells {
  time: string;
  method: string;
  path: string;
  status: string;
  tone: 'good' | 'bad' | 'waiting';
  duration: string;
  notes: string;
  id: string;
}

type Widths = Record<'method' | 'path' | 'duration', number>;

/** The widths a followed list starts with (it cannot measure rows to come). */
const FOLLOW_WIDTHS: Widths = { method: 6, path: 36, duration: 7 };

function cells(r: RequestView): Cells {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(r.query)) for (const one of Array.isArray(value) ? value : [value]) query.append(name, String(one));
  const notes = [
    r.idempotency_key !== null ? `key=${r.idempotency_key}` : '',
    r.replayed ? 'replayed' : '',
    r.fault !== null ? `fault ${r.fault}` : '',
    r.status === null ? 'closed unanswered' : '',
  ].filter(Boolean);
  return {
    time: r.at.slice(0, 19).replace('T', ' '),
    method: r.method,
    path: query.size > 0 ? `${r.path}?${query}` : r.path,
    status: r.status === null ? '---' : String(r.status),
    tone: r.status === null || r.status >= 500 ? 'bad' : r.status >= 400 ? 'waiting' : 'good',
    duration: `${r.duration_ms} ms`,
    notes: notes.join(' '),
    id: r.id,
  };
}

function columnWidths(rows: Cells[], floor: Partial<Widths> = {}): Widths {
  const widest = (key: keyof Widths) => Math.max(floor[key] ?? 0, ...rows.map((row) => row[key].length));
  return { method: widest('method'), path: widest('path'), duration: widest('duration') };
}

/** One request a line: time, method, path and query, status, duration, notes, id. Padded before colouring. */
function describe(row: Cells, widths: Widths, out: Output): string {
  const tone = row.tone === 'good' ? out.c.green : row.tone === 'bad' ? out.c.red : out.c.yellow;
  return [
    out.c.dim(row.time),
    out.c.cyan(row.method.padEnd(widths.method)),
    row.path.padEnd(widths.path),
    tone(row.status),
    row.duration.padStart(widths.duration),
    ...(row.notes ? [row.notes] : []),
    out.c.dim(row.id),
  ].join('  ');
}

/**
 * Polls the journal with `since` and prints each request not printed yet, oldest first. `since`
 * is exclusive and a frozen clock gives many requests the same `at`, so each poll asks from a
 * millisecond before the newest seen and skips the ids it has printed.
 */
async function follow(client: PayemuClient, out: Output, filter: RequestFilter): Promise<void> {
  // The CLI's own process: a Timers of its own, whose waits keep the process alive.
  const timers = new Timers();
  const wait = () => new Promise<void>((resolve) => timers.after(POLL_MS, resolve, { ref: true }));
  const first = await client.requests({ ...filter, limit: 1000 });
  let seen = new Set(first.requests.map((r) => r.id));
  let since = cursor(first.requests[0]?.at);
  if (!out.json) out.line(out.c.dim(`following requests at ${client.url} (Ctrl+C to stop)`));
  for (;;) {
    await wait();
    const { requests } = await client.requests({ ...filter, since, limit: 1000 });
    for (const r of [...requests].reverse()) {
      if (seen.has(r.id)) continue;
      out.line(out.json ? JSON.stringify(r) : describe(cells(r), columnWidths([cells(r)], FOLLOW_WIDTHS), out));
    }
    if (requests.length > 0) {
      seen = new Set(requests.map((r) => r.id));
      since = cursor(requests[0]!.at);
    }
  }
}

/** A millisecond before `at`: the next poll sees requests of the same instant again (and skips those seen). */
function cursor(at: string | undefined): string | undefined {
  const ms = at === undefined ? undefined : parseTimestamp(at);
  return ms === undefined ? undefined : formatTimestamp(ms - 1);
}
