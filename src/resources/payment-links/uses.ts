import { formatDate } from '../../clock/format.js';
import type { PayemuConfig } from '../../config/types.js';
import { Conflict } from '../../http/errors.js';
import { minorToNumber } from '../../lib/money.js';
import type { Transaction } from '../../store/store.js';
import type { PaymentRecord } from '../common/payment-records.js';
import { periodDate } from '../recurring/dates.js';
import { createRecurring } from '../recurring/service.js';
import { startOfDay } from '../../clock/format.js';
import { isUsable, linkPrice, PaymentLinks, type PaymentLinkRecord } from './records.js';

/** A checkout opened from a link that has since been used up or turned off fails at payment (409). */
export function assertLinkUsable(tx: Transaction, linkId: string, now: number): PaymentLinkRecord {
  const link = tx.get(PaymentLinks, linkId);
  if (!link || !isUsable(link, now)) throw new Conflict('This payment link has been used up or turned off: the payment cannot be made.');
  return link;
}

/**
 * A successful payment through a link counts as a use; the link turns off at `max_uses`. A
 * recurring link starts its schedule with the card of this first payment: the payment was
 * period 0, the schedule bills from period 1.
 */
export function recordLinkUse(tx: Transaction, link: PaymentLinkRecord, payment: PaymentRecord, config: PayemuConfig, now: number): void {
  const uses = link.uses_count + 1;
  const used = tx.put(PaymentLinks, {
    ...link,
    uses_count: uses,
    active: link.max_uses !== null && uses >= link.max_uses ? false : link.active,
    updated_at: now,
  });
  const source = config.sources.find((s) => s.slug === link.source);
  if (!used.recurring || !payment.payment_method || !source) return;
  const today = startOfDay(now);
  const interval = used.recurring.interval_count ?? 1;
  createRecurring(
    tx,
    { source, mode: link.mode },
    {
      payment_method: payment.payment_method,
      amount: minorToNumber(linkPrice(used)),
      currency: used.currency,
      frequency: used.recurring.frequency,
      interval_count: interval,
      ...(used.recurring.end_date !== null && used.recurring.end_date > today ? { end_date: formatDate(used.recurring.end_date) } : {}),
      ...(payment.customer_email ? { customer_email: payment.customer_email } : {}),
      metadata: used.metadata,
      apply_tax: used.taxable,
    },
    now,
    { next_billing_date: periodDate(today, used.recurring.frequency, interval, 1), sequence: 2, payment_link_id: used.id },
  );
}
