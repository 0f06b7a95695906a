import { Timers } from '../clock/timers.js';
import type { Emulator } from '../emulator.js';

/** An event of the log, with the named namespace it is of (none: the default one). */
type EventView = ReturnType<Emulator['events']['list']>[number] & { namespace?: string };

/** Exit code of `payemu exec --expect-delivered` when an event was not delivered. */
export const EXIT_UNDELIVERED = 3;

const unsettled = (e: EventView) => e.delivery_status === 'pending' || e.delivery_status === 'retrying';

/**
 * `payemu exec --expect-delivered`, once the command has exited 0: waits (at most `settleMs` of
 * real time) while any delivery is pending or retrying, waking on each attempt that ends rather
 * than on a timer, then answers the events of every Source and mode, in every namespace (the
 * command's parallel workers each in their own), that are not `delivered`.
 */
export async function undeliveredAfter(emulator: Emulator, settleMs: number): Promise<EventView[]> {
  await emulator.idle(); // attempts due now (a first attempt, a retry with no backoff) run first
  const named = await Promise.all(emulator.namespaces.list().map(({ name }) => emulator.namespace(name)));
  const logs: { namespace?: string; events: Emulator['events'] }[] = [
    { events: emulator.events },
    ...named.map(({ name, events }) => ({ namespace: name, events })),
  ];
  const list = (filter?: Parameters<Emulator['events']['list']>[0]): EventView[] =>
    logs.flatMap(({ namespace, events }) => events.list(filter).map((e) => (namespace === undefined ? e : { ...e, namespace })));
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
  const off = emulator.bus.on('webhook.attempt', () => wake?.()); // every namespace's attempts reach the emulator's bus
  try {
    // Filtered lists: only the matching events are presented, however many were delivered.
    const waiting = () => list({ delivery_status: 'pending' }).length + list({ delivery_status: 'retrying' }).length > 0;
    while (!expired && waiting()) {
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    off();
    limit.cancel();
  }
  return list().filter((e) => e.delivery_status !== 'delivered');
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
    const where = `${e.source} ${e.mode}${e.namespace === undefined ? '' : ` namespace ${e.namespace}`}`;
    lines.push(`  ${e.delivery_status.padEnd(11)}  ${e.event.padEnd(width)}  ${where}  ${e.id}  ${why}`);
  }
  if (events.some((e) => e.delivery_status === 'no_endpoint')) {
    lines.push(
      'payemu: no_endpoint: no webhook URL was set for their Source; set --webhook-url (or webhook_url of the Source in the config, or payemu webhook set URL) so that they are sent.',
    );
  }
  return `${lines.join('\n')}\n`;
}
