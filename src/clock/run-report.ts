import { formatTimestamp } from './format.js';

/** What a run of due work did: counts by kind, and the first items. */
export interface RunReport {
  ran: Record<string, number>;
  /** The first 100 things that ran. */
  items: { kind: string; id: string; at: string }[];
}

const MAX_ITEMS = 100;

export function count(report: RunReport, kind: string, id: string, at: number): void {
  report.ran[kind] = (report.ran[kind] ?? 0) + 1;
  if (report.items.length < MAX_ITEMS) report.items.push({ kind, id, at: formatTimestamp(at) });
}

export function merge(report: RunReport, more: RunReport): void {
  for (const [kind, n] of Object.entries(more.ran)) report.ran[kind] = (report.ran[kind] ?? 0) + n;
  for (const item of more.items) if (report.items.length < MAX_ITEMS) report.items.push(item);
}
