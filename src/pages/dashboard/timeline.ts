import { type PaymentRecord, capturedAt, updatedAt } from '../../resources/common/payment-records.js';
import type { RefundRecord } from '../../resources/refunds/records.js';
import { type EventRecord, attemptState, attemptsOf } from '../../webhooks/records.js';
import { html, type Raw } from '../html.js';
import { badge, httpBadge, type Tone, toneOf } from './badges.js';
import { money, when } from './format.js';
import { type DashScope, href } from './scope.js';

interface Step {
  at: number;
  /** Orders steps of one instant: the change first, then what it raised. */
  rank: number;
  tone: Tone;
  kind: string;
  what: Raw;
}

/** What happened to the payment itself: created, authorized, captured, voided, failed, expired. */
function paymentSteps(payment: PaymentRecord): Step[] {
  const amount = (minor: number) => money(minor, payment.currency);
  const steps: Step[] = [
    { at: payment.created_at, rank: 0, tone: 'neutral', kind: 'created', what: html`<strong>Created</strong> for ${amount(payment.amount)}` },
  ];
  if (payment.authorized_at !== undefined)
    steps.push({
      at: payment.authorized_at,
      rank: 1,
      tone: 'info',
      kind: 'authorized',
      what: html`<strong>Authorized</strong> ${amount(payment.authorized_amount ?? payment.amount)}`,
    });
  const captured = capturedAt(payment);
  if (captured !== undefined)
    steps.push({ at: captured, rank: 2, tone: 'ok', kind: 'captured', what: html`<strong>Captured</strong> ${amount(payment.amount)}` });
  if (payment.voided_at !== undefined) steps.push({ at: payment.voided_at, rank: 3, tone: 'neutral', kind: 'voided', what: html`<strong>Voided</strong>` });
  if (payment.status === 'FAILED')
    steps.push({
      at: updatedAt(payment),
      rank: 3,
      tone: 'bad',
      kind: 'failed',
      what: html`<strong>Failed</strong>${payment.failure_code ? html` <code>${payment.failure_code}</code> ${payment.failure_message ?? ''}` : ''}`,
    });
  if (payment.status === 'EXPIRED')
    steps.push({ at: updatedAt(payment), rank: 3, tone: 'neutral', kind: 'expired', what: html`<strong>Expired</strong> (the authorization lapsed)` });
  return steps;
}

/**
 * A payment's life, oldest first, each step at its virtual time: created, authorized, captured
 * (or voided, failed, expired), each refund, and each event raised for it with the delivery
 * attempts of that event under it.
 */
export function paymentTimeline(scope: DashScope, payment: PaymentRecord, refunds: readonly RefundRecord[], events: readonly EventRecord[]): Raw {
  const steps = paymentSteps(payment);
  for (const r of refunds)
    steps.push({
      at: r.created_at,
      rank: 4,
      tone: 'refund',
      kind: 'refund',
      what: html`<strong>Refunded</strong> ${money(r.amount, payment.currency)}${r.reason ? html` <span class="muted">(${r.reason})</span>` : ''}`,
    });
  for (const e of events) {
    const attempts = attemptsOf(e);
    steps.push({
      at: e.created_at,
      rank: 5,
      tone: toneOf(e.delivery_status),
      kind: 'event',
      what: html`<span class="what"><a href="${href(scope, `/events/${encodeURIComponent(e.id)}`)}">${e.event}</a> ${badge(e.delivery_status)}</span>${
        attempts.length > 0
          ? html`<ul aria-label="Delivery attempts of ${e.event}">${attempts.map(
              (a) =>
                html`<li><time>${when(a.at)}</time> ${httpBadge(a.status)} ${badge(attemptState(a))} <span class="muted">${a.duration_ms} ms</span>${a.chaos ? html` <code>chaos: ${a.chaos}</code>` : ''}</li>`,
            )}</ul>`
          : ''
      }`,
    });
  }
  steps.sort((a, b) => a.at - b.at || a.rank - b.rank);
  return html`<ol class="timeline" data-testid="timeline">${steps.map(
    (s) => html`<li class="${s.tone}" data-kind="${s.kind}"><time>${when(s.at)}</time><div>${s.what}</div></li>`,
  )}</ol>`;
}
