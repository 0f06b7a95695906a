import type { Scope } from '../../http/auth.js';
import { NotFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { toMinor, type Minor } from '../../lib/money.js';
import type { Transaction } from '../../store/store.js';
import { FAILURE_MESSAGES } from '../cards/test-cards.js';
import { scriptedFailure, takeScriptedStep } from '../outcomes/service.js';
import type { PaymentMethodRecord } from '../payment-methods/records.js';
import { recordPayment } from '../payments/record.js';
import type { PaymentRecord } from '../payments/records.js';
import { savedCard } from '../recurring/service.js';
import { assertReferenceFree } from '../sessions/service.js';
import { Charges, type ChargeRecord } from './records.js';
import type { CreateChargeBody } from './schemas.js';

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

/** `POST /v1/charges`: a declined charge is created too (status FAILED). */
export function createCharge(tx: Transaction, scope: Scope, body: CreateChargeBody, now: number): { charge: ChargeRecord; payment: PaymentRecord } {
  const method = savedCard(tx, scope, body.payment_method);
  const reference = body.reference ?? newId('pay_', 16);
  assertReferenceFree(tx, scope, reference);
  const id = newId('ch_');
  const payment = chargeCard(
    tx,
    method,
    {
      reference,
      amount: toMinor(body.amount),
      currency: (body.currency ?? scope.source.currency).toUpperCase(),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
    },
    { charge_id: id },
    now,
  );
  const charge = tx.put(Charges, { id, source: scope.source.slug, mode: scope.mode, payment_id: payment.id, created_at: now });
  return { charge, payment };
}

export function getCharge(reader: Pick<Transaction, 'get'>, scope: Scope, id: string): ChargeRecord {
  const charge = reader.get(Charges, id);
  if (!charge || charge.source !== scope.source.slug || charge.mode !== scope.mode) throw new NotFound(`No charge with id "${id}".`);
  return charge;
}
