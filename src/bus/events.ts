/** The 18 events of the hosted API's event table, in its order. Every one of them exists in payemu. */
export const EVENT_NAMES = [
  'payment.completed',
  'payment.authorized',
  'payment.captured',
  'payment.failed',
  'payment.refunded',
  'payment.voided',
  'recurring.charged',
  'recurring.failed',
  'recurring.suspended',
  'recurring.cancelled',
  'recurring.paused',
  'recurring.resumed',
  'recurring.updated',
  'recurring.payment_method_updated',
  'invoice.created',
  'invoice.sent',
  'invoice.paid',
  'invoice.overdue',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

/**
 * A domain event raised by a transaction (one of EVENT_NAMES, or a name of payemu's own), on
 * the bus once its transaction is on disk.
 */
export interface RaisedEvent {
  /** The event's id (its record in the events collection). */
  id: string;
  name: string;
  source: string;
  mode: 'test' | 'live';
  data: Record<string, unknown>;
  /** Virtual time it happened (a charge of a clock advance: its own day, not the advance's end). */
  at: number;
}
