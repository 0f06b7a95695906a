import type { PayemuClient } from '../client/client.js';
import type { EventView } from '../client/types.js';
import { connect } from './client.js';
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

/** `payemu events`: the event log, newest first; `--follow` streams new events and attempts. */
export async function list(options: EventsOptions): Promise<void> {
  const client = connect(options);
  const out = output(options);
  if (options.follow) return follow(client, out, options.event);
  const events = await client.events({ event: options.event, reference: options.reference, limit: options.limit });
  if (out.json) return out.line(JSON.stringify(events));
  if (events.length === 0) return out.line('no events yet');
  for (const e of events) out.line(describe(e, out));
}

/** `payemu events resend <id>`: a new delivery of the event, with the same id. */
export async function resend(id: string, options: EventsOptions): Promise<void> {
  const out = output(options);
  const event = await connect(options).resendEvent(id);
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

async function follow(client: PayemuClient, out: Output, only: string | undefined): Promise<void> {
  const messages = await client.streamEvents();
  if (!out.json) out.line(out.c.dim(`following events at ${client.url} (Ctrl+C to stop)`));
  for await (const message of messages) {
    // Both kinds name their event: --event filters attempts as well as events.
    if (only && message.data.event !== only) continue;
    if (out.json) out.line(JSON.stringify({ type: message.type, ...message.data }));
    else if (message.type === 'event') out.line(describe(message.data, out));
    else {
      const { event, attempt, delivery_status } = message.data;
      out.line(`  ${out.c.dim('attempt')} ${event} ${attempt?.status ?? attempt?.error ?? 'no endpoint'} -> ${delivery_status}`);
    }
  }
}
