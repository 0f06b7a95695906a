import { Timers } from '../clock/timers.js';
import type { Emulator } from '../emulator.js';

type EventView = ReturnType<Emulator['events']['list']>[number];

/** Exit code of `payemu exec --expect-delivered` when an event was not delivered. */
export const EXIT_UNDELIVERED = 3;

const unsettled = (e: EventView) => e.delivery_status === 'pending' || e.delivery_status === 'retrying';

/**
 * `payemu exec --expect-delivered`, once the command has exited 0: waits (at most `settleMs` of
 * real time) while any delivery is pending or retrying, waking on each attempt that ends rather
 * than on a timer, then answers the events of every Source and mode that are not `delivered`.
 */
export async function undeliveredAfter(emulator: Emulator, settleMs: number): Promise<EventView[]> {
  await emulator.idle(); // attempts due now (a first attempt, a retry with no backoff) run first
  const timers = new Timers();
  let expired = false;
  let wake: (() => void) | undefined;
  const limit = timers.after(
    settleMs,
    () => {
      expired = true;
      wake?.();
    },
    { ref: true },
  );
  const off = emulator.bus.on('webhook.attempt', () => wake?.());
  try {
    // Filtered lists: only the matching events are presented, however many were delivered.
    const waiting = () => emulator.events.list({ delivery_status: 'pending' }).length + emulator.events.list({ delivery_status: 'retrying' }).length > 0;
    while (!expired && waiting()) {
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    off();
    limit.cancel();
  }
  return emulator.events.list().filter((e) => e.delivery_status !== 'delivered');
}

/** What exec prints on stderr: one line an event, and how to fix a missing endpoint. */
export function describeUndelivered(events: EventView[], settle: string): string {
  const lines = [`payemu: ${events.length} webhook event${events.length === 1 ? ' was' : 's were'} not delivered (--expect-delivered):`];
  const width = Math.max(...events.map((e) => e.event.length));
  for (const e of [...events].reverse()) {
    const last = e.attempts.at(-1);
    const why =
      e.delivery_status === 'no_endpoint'
        ? 'no webhook URL'
        : unsettled(e)
          ? `still ${e.delivery_status} after --settle ${settle}${last ? `, last attempt: ${last.status ?? last.error}` : ''}`
          : `last attempt: ${last?.status ?? last?.error ?? 'none'}`;
    lines.push(`  ${e.delivery_status.padEnd(11)}  ${e.event.padEnd(width)}  ${e.source} ${e.mode}  ${e.id}  ${why}`);
  }
  if (events.some((e) => e.delivery_status === 'no_endpoint')) {
    lines.push(
      'payemu: no_endpoint: no webhook URL was set for their Source; set --webhook-url (or webhook_url of the Source in the config) so that they are sent.',
    );
  }
  return `${lines.join('\n')}\n`;
}
