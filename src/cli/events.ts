import type { PayemuClient } from '../client/client.js';
import type { EventView } from '../client/types.js';
import { formatAmount, payloadAmount } from '../lib/money.js';
import { type ConnectOptions, connect } from './client.js';
import { CliError, EXIT } from './errors.js';
import { output, type Output } from './output.js';

export interface EventsOptions extends ConnectOptions {
  follow?: boolean;
  event?: string;
  reference?: string;
  limit?: number;
  json?: boolean;
}

/** `payemu events`: the event log, newest first; `--follow` streams new events and attempts. */
export async function list(options: EventsOptions): Promise<void> {
  if (options.follow && (options.reference !== undefined || options.limit !== undefined))
    throw new CliError(
      `events --follow streams what happens next: it takes --event, not ${options.reference !== undefined ? '--reference' : '--limit'}. See \`payemu events --help\`.`,
      EXIT.usage,
    );
  const client = connect(options);
  const out = output(options);
  if (options.follow) return follow(client, out, options.event);
  const events = await client.events({ event: options.event, reference: options.reference, limit: options.limit });
  if (out.json) return out.line(JSON.stringify(events));
  if (events.length === 0) return out.line('no events yet');
  const rows = events.map(cells);
  const widths = columnWidths(rows);
  for (const row of rows) out.line(describe(row, widths, out));
}

/** `payemu events resend <id>`: a new delivery of the event, with the same id. */
export async function resend(id: string, options: EventsOptions): Promise<void> {
  const out = output(options);
  const event = await connect(options).resendEvent(id);
  out.result(event, () => `resending ${event.event} ${event.id}`);
}

interface Cells {
  time: string;
  event: string;
  reference: string;
  /** `25.00 USD`, as every output writes amounts; empty for an event without one. */
  amount: string;
  state: string;
  tone: 'good' | 'bad' | 'waiting';
  id: string;
}

type Widths = Record<'event' | 'reference' | 'amount' | 'state', number>;

/**
 * The widths a followed stream starts with (it cannot measure rows to come): the longest event
 * name, a generated reference, an amount up to `999999.99 USD`, `retrying, sending`.
 */
const FOLLOW_WIDTHS: Widths = { event: 32, reference: 24, amount: 13, state: 17 };

function cells(e: EventView): Cells {
  const last = e.attempts.at(-1);
  // An attempt still out is no failure: `pending, sending` rather than a bare status.
  const sending = last?.state === 'in_progress' ? ', sending' : '';
  const delivered = e.delivery_status === 'delivered';
  return {
    time: e.created_at.slice(0, 19).replace('T', ' '),
    event: e.event,
    reference: e.reference ?? '-',
    amount: amountCell(e.payload.data),
    state: delivered ? `delivered ${last?.status}` : `${e.delivery_status}${e.delivery_status === 'failed' ? '' : sending}`,
    tone: delivered ? 'good' : e.delivery_status === 'failed' ? 'bad' : 'waiting',
    id: e.id,
  };
}

/** Each column as wide as its widest cell: the columns line up whatever the references. */
function columnWidths(rows: Cells[], floor: Partial<Widths> = {}): Widths {
  const widest = (key: keyof Widths) => Math.max(floor[key] ?? 0, ...rows.map((row) => row[key].length));
  return { event: widest('event'), reference: widest('reference'), amount: widest('amount'), state: widest('state') };
}

/** The event's amount (an invoice's total), as every output writes it. */
function amountCell(data: object): string {
  const worth = payloadAmount(data as Record<string, unknown>);
  return worth ? formatAmount(worth.amount, worth.currency) : '';
}

/** One event a line, in fixed columns: time, event, reference, amount and currency (right-aligned), delivery, id. Padded before colouring. */
function describe(row: Cells, widths: Widths, out: Output): string {
  const state = row.state.padEnd(widths.state);
  const tone = row.tone === 'good' ? out.c.green : row.tone === 'bad' ? out.c.red : out.c.yellow;
  return [
    out.c.dim(row.time),
    out.c.cyan(row.event.padEnd(widths.event)),
    row.reference.padEnd(widths.reference),
    row.amount.padStart(widths.amount),
    tone(state),
    out.c.dim(row.id),
  ].join('  ');
}

async function follow(client: PayemuClient, out: Output, only: string | undefined): Promise<void> {
  const messages = await client.streamEvents();
  if (!out.json) out.line(out.c.dim(`following events at ${client.url} (Ctrl+C to stop)`));
  for await (const message of messages) {
    // Both kinds name their event: --event filters attempts as well as events.
    if (only && message.data.event !== only) continue;
    if (out.json) out.line(JSON.stringify({ type: message.type, ...message.data }));
    else if (message.type === 'event') {
      const row = cells(message.data);
      out.line(describe(row, columnWidths([row], FOLLOW_WIDTHS), out));
    } else {
      const { event, attempt, delivery_status } = message.data;
      out.line(`  ${out.c.dim('attempt')} ${event} ${attempt?.status ?? attempt?.error ?? 'no endpoint'} -> ${delivery_status}`);
    }
  }
}
