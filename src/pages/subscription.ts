import { formatDate, startOfDay } from '../clock/format.js';
import type { CardBrand } from '../resources/common/test-cards.js';
import type { PaymentLinkRecord } from '../resources/payment-links/records.js';
import { periodDate, type Frequency } from '../resources/recurring/dates.js';
import { html, type Raw } from './html.js';

/** Words the hosted pages use for a subscription's terms and a saved card. */

const UNITS: Record<Frequency, string> = { daily: 'day', weekly: 'week', monthly: 'month', yearly: 'year' };

/** `every month`, `every 3 months`. */
export function everyText(frequency: Frequency, intervalCount: number): string {
  return intervalCount > 1 ? `every ${intervalCount} ${UNITS[frequency]}s` : `every ${UNITS[frequency]}`;
}

/**
 * What a customer agrees to on a recurring payment link's page and checkout: the amount each
 * interval, the first charge (today: the payment made on the checkout) and the date of the next
 * one (the schedule bills from period 1 of today's cadence), and the end date when there is one
 * (no charge falls on or after it).
 */
export function subscriptionTerms(recurring: NonNullable<PaymentLinkRecord['recurring']>, amount: string, now: number): Raw {
  const count = recurring.interval_count ?? 1;
  const every = everyText(recurring.frequency, count);
  const today = startOfDay(now);
  const next = periodDate(today, recurring.frequency, count, 1);
  const ends = recurring.end_date;
  const later =
    ends !== null && next >= ends
      ? html`No later charge: the subscription ends on ${formatDate(ends)}.`
      : html`Then ${amount} on ${formatDate(next)} and ${every} after that, ${ends !== null ? html`until ${formatDate(ends)} (no charge on or after it)` : 'until you cancel'}.`;
  return html`<div class="subscription" data-testid="subscription">
      <p><strong>Subscription: ${amount} ${every}</strong></p>
      <p>First charge today (${formatDate(today)}). ${later} Your card is saved for these charges.</p>
    </div>`;
}

const BRANDS: Record<CardBrand, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express' };

/** `Visa •••• 4242`. */
export function cardText(brand: CardBrand | null | undefined, last4: string | undefined): string {
  return `${brand ? BRANDS[brand] : 'Card'} •••• ${last4 ?? '????'}`;
}
