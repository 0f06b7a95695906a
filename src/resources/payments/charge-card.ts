import type { Minor } from '../../lib/money.js';
import type { Transaction } from '../../store/store.js';
import type { PaymentMethodRecord } from '../payment-methods/records.js';
import type { PaymentRecord } from '../common/payment-records.js';
import { FAILURE_MESSAGES } from '../common/test-cards.js';
import { scriptedFailure, takeScriptedStep } from '../outcomes/service.js';
import { recordPayment } from './record.js';

const DECLINED_OFF_SESSION = { code: 'card_declined' as const, message: FAILURE_MESSAGES.card_declined };

/**
 * Charges a saved card without the customer: approved, except the card saved from
 * 4000 0000 0000 0341, which declines every off-session charge, unless a scripted outcome
 * (of the payment reference, the schedule, or the card) decides. Shared by `POST /v1/charges`
 * and recurring billing.
 */
export function chargeCard(
  tx: Transaction,
  method: PaymentMethodRecord,
  charge: {
    reference: string;
    amount: Minor;
    currency: string;
    description?: string;
    customer_email?: string;
    customer_name?: string;
    metadata?: Record<string, unknown>;
  },
  origin: Pick<PaymentRecord, 'charge_id' | 'recurring_reference'>,
  now: number,
): PaymentRecord {
  const step = takeScriptedStep(tx, method.source, method.mode, {
    reference: charge.reference,
    schedule: origin.recurring_reference,
    payment_method: method.id,
  });
  const failure =
    step === undefined ? (method.decline_off_session ? DECLINED_OFF_SESSION : undefined) : step === 'approved' ? undefined : scriptedFailure(step);
  // Field by field, no spreads: recurring billing charges hundreds of thousands of times.
  return recordPayment(
    tx,
    {
      source: method.source,
      mode: method.mode,
      reference: charge.reference,
      amount: charge.amount,
      currency: charge.currency,
      description: charge.description,
      customer_email: charge.customer_email ?? method.customer_email,
      customer_name: charge.customer_name,
      metadata: charge.metadata,
      capture_method: 'automatic',
      card_brand: method.card_brand,
      card_last: method.card_last,
      failure,
      payment_method: method.id,
      origin,
    },
    now,
  );
}
