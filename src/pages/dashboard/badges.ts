import { html, type Raw } from '../html.js';

/** How a status reads at a glance: the badge's colour (its word is always written too). */
export type Tone = 'ok' | 'bad' | 'warn' | 'info' | 'refund' | 'neutral';

/**
 * Every status the dashboard shows, of payments, schedules, invoices, deliveries, attempts and
 * payment links: green for money or a delivery that went through, red for a failure, amber for
 * what is still waiting, blue for a state on its way, purple for money given back, grey for an end.
 */
const TONES: Readonly<Record<string, Tone>> = {
  PAID: 'ok',
  FAILED: 'bad',
  AUTHORIZED: 'info',
  VOIDED: 'neutral',
  PARTIALLY_REFUNDED: 'refund',
  REFUNDED: 'refund',
  EXPIRED: 'neutral',
  active: 'ok',
  paused: 'warn',
  suspended: 'bad',
  cancelled: 'neutral',
  completed: 'info',
  draft: 'neutral',
  sent: 'info',
  paid: 'ok',
  overdue: 'bad',
  pending: 'warn',
  retrying: 'warn',
  delivered: 'ok',
  failed: 'bad',
  no_endpoint: 'neutral',
  succeeded: 'ok',
  in_progress: 'warn',
  interrupted: 'neutral',
  usable: 'ok',
  closed: 'neutral',
};

export const toneOf = (status: string): Tone => TONES[status] ?? 'neutral';

/** A status as a coloured badge with its word. */
export const badge = (status: string): Raw => html`<span class="badge ${toneOf(status)}">${status}</span>`;

/** An HTTP status as a badge: 2xx green, 4xx amber, 5xx red; none (no answer) a dash. */
export function httpBadge(status: number | null | undefined): Raw {
  if (status === null || status === undefined) return html`<span class="muted">—</span>`;
  const tone: Tone = status < 300 ? 'ok' : status < 500 ? 'warn' : 'bad';
  return html`<span class="badge ${tone} code">${status}</span>`;
}
