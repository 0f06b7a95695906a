import type { PayemuClient } from '../client/client.js';
import { type ConnectOptions, connect } from './client.js';
import { output } from './output.js';

type NamespaceView = Awaited<ReturnType<PayemuClient['namespaces']>>[number];

interface Options extends ConnectOptions {
  json?: boolean;
}

/**
 * `payemu namespaces`: the named namespaces of the payemu at --url (the default is not one of
 * them), by name: when each was made, its clock, and the records it holds. Any key lists them.
 */
export async function list(options: Options): Promise<void> {
  const out = output(options);
  const namespaces = await connect(options, { namespaced: false }).namespaces();
  if (out.json) return out.line(JSON.stringify(namespaces));
  if (namespaces.length === 0) return out.line('no namespaces yet (a key ending in ~NAME makes NAME on its first request)');
  const rows = [['NAME', 'CREATED', 'CLOCK', 'RECORDS'], ...namespaces.map(cells)];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const [i, row] of rows.entries()) {
    const line = row.map((cell, j) => (j < 3 ? cell.padEnd(widths[j]!) : cell)).join('  ');
    out.line(i === 0 ? out.c.bold(line) : line);
  }
}

/** `payemu namespaces delete NAME`: drops one, its records, clock and pending deliveries. */
export async function remove(name: string, options: Options): Promise<void> {
  const out = output(options);
  const result = await connect(options, { namespaced: false }).deleteNamespace(name);
  out.result(result, () => `deleted namespace ${result.deleted}`);
}

/** `w3  2026-11-28 12:00:00  2026-12-28 12:00:00 (offset 2592000 s, frozen)  payments 3, sessions 3, events 6`: the clock as `payemu clock` shows it. */
function cells(n: NamespaceView): string[] {
  const clock = `${time(n.clock.now)} (offset ${n.clock.offset_seconds} s${n.clock.frozen ? ', frozen' : ''})`;
  const records = Object.entries(n.counts)
    .filter(([, count]) => count > 0)
    .map(([name, count]) => `${name} ${count}`)
    .join(', ');
  return [n.name, time(n.created_at), clock, records || 'none'];
}

const time = (timestamp: string) => timestamp.slice(0, 19).replace('T', ' ');
