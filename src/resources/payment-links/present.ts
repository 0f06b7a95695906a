import { formatDate, formatOptionalTimestamp, formatTimestamp } from '../../clock/format.js';
import { onlyFields } from '../../http/document-query.js';
import { formatMinor } from '../../lib/money.js';
import type { PaymentLinkAttributes } from '../../schemas/payment-links.js';
import { isUsable, linkKind, linkPrice, type PaymentLinkRecord } from './records.js';

export const linkPayUrl = (base: string, link: PaymentLinkRecord) => `${base}/pay/${link.id}`;

/** Type `payment-links`: the hosted API's create-response attributes. */
export function linkAttributes(link: PaymentLinkRecord, base: string, now: number): PaymentLinkAttributes {
  return {
    url: linkPayUrl(base, link),
    title: link.title,
    description: link.description,
    type: linkKind(link),
    amount: formatMinor(linkPrice(link)),
    currency: link.currency,
    active: link.active,
    usable: isUsable(link, now),
    uses_count: link.uses_count,
    max_uses: link.max_uses,
    expires_at: formatOptionalTimestamp(link.expires_at),
    taxable: link.taxable,
    recurring: link.recurring && {
      frequency: link.recurring.frequency,
      interval_count: link.recurring.interval_count,
      end_date: link.recurring.end_date === null ? null : formatDate(link.recurring.end_date),
    },
    products: link.products.map((p) => ({
      id: p.id,
      name: p.name,
      quantity: p.quantity,
      unit_price: formatMinor(p.unit_price),
      amount: formatMinor(p.unit_price * p.quantity),
    })),
    metadata: link.metadata,
    success_url: link.success_url,
    cancel_url: link.cancel_url,
    test: link.mode === 'test',
    created_at: formatTimestamp(link.created_at),
    updated_at: formatTimestamp(link.updated_at),
  };
}

export function presentLink(link: PaymentLinkRecord, base: string, now: number, fields?: readonly string[]) {
  const attributes = onlyFields(linkAttributes(link, base, now), fields);
  return { id: link.id, type: 'payment-links', attributes, links: { self: `${base}/v1/payment-links/${link.id}`, pay: linkPayUrl(base, link) } };
}
