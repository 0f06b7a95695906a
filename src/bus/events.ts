/** The events of SPEC.md's event table, in its order. Every one of them exists in payemu. */
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
