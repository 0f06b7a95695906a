import { call, connection, unreachable, type Connection } from './client.js';
import { output, type Output } from './output.js';

export interface EventsOptions {
  follow?: boolean;
  event?: string;
  reference?: string;
  limit?: string;
  url?: string;
  key?: string;
  json?: boolean;
}

interface EventView {
  id: string;
  event: string;
  reference: string | null;
  created_at: string;
  delivery_status: string;
  /** `state`: `in_progress`, `interrupted`, `succeeded` or `failed`. */
  attempts: { status: number | null; state?: string }[];
  payload: { data: { amount?: number; currency?: string } };
}

/** `payemu events`: the event log, newest first; `--follow` streams new events and attempts. */
export async function list(options: EventsOptions): Promise<void> {
  const conn = connection(options);
  const out = output(options);
  if (options.follow) return follow(conn, out, options.event);
  const query = new URLSearchParams();
  if (options.event) query.set('event', options.event);
  if (options.reference) query.set('reference', options.reference);
  if (options.limit) query.set('limit', options.limit);
  const { events } = await call<{ events: EventView[] }>(conn, 'GET', `/_payemu/events${query.size ? `?${query}` : ''}`);
  if (out.json) return out.line(JSON.stringify(events));
  if (events.length === 0) return out.line('no events yet');
  for (const e of events) out.line(describe(e, out));
}

/** `payemu events resend <id>`: a new delivery of the event, with the same id. */
export async function resend(id: string, options: EventsOptions): Promise<void> {
  const out = output(options);
  const event = await call<EventView>(connection(options), 'POST', `/_payemu/events/${encodeURIComponent(id)}/resend`, {});
  out.result(event, () => `resending ${event.event} ${event.id}`);
}

function describe(e: EventView, out: Output): string {
  const amount = e.payload.data.amount !== undefined ? ` ${e.payload.data.amount} ${e.payload.data.currency ?? ''}` : '';
  const last = e.attempts.at(-1);
  // An attempt still out is no failure: `pending, sending` rather than a bare status.
  const sending = last?.state === 'in_progress' ? ', sending' : '';
  const state = e.delivery_status === 'delivered' ? out.c.green(`delivered ${last?.status}`) : e.delivery_status === 'failed' ? out.c.red('failed') : out.c.yellow(`${e.delivery_status}${sending}`);
  return `${out.c.dim(e.created_at.slice(0, 19).replace('T', ' '))} ${out.c.cyan(e.event.padEnd(32))} ${e.reference ?? ''}${amount}  ${state}  ${out.c.dim(e.id)}`;
}

async function follow(conn: Connection, out: Output, only: string | undefined): Promise<void> {
  let res: Response;
  try {
    res = await fetch(`${conn.url}/_payemu/events/stream`, { headers: { Authorization: `Bearer ${conn.key}` } });
  } catch (error) {
    throw unreachable(conn, error);
  }
  if (!res.ok || !res.body) return void (await call(conn, 'GET', '/_payemu/events/stream'));
  if (!out.json) out.line(out.c.dim(`following events at ${conn.url} (Ctrl+C to stop)`));
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const message = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const name = /^event: (.+)$/m.exec(message)?.[1];
      const data = /^data: (.+)$/m.exec(message)?.[1];
      if (!name || !data) continue;
      const value = JSON.parse(data);
      if (only && (name === 'event' ? value.event : value.event) !== only) continue;
      if (out.json) out.line(JSON.stringify({ type: name, ...value }));
      else if (name === 'event') out.line(describe(value, out));
      else out.line(`  ${out.c.dim('attempt')} ${value.event} ${value.attempt?.status ?? value.attempt?.error ?? 'no endpoint'} -> ${value.delivery_status}`);
    }
  }
}
