import type { Scope } from '../../http/auth.js';
import { NotFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { toMinor } from '../../lib/money.js';
import type { Transaction } from '../../store/store.js';
import type { PaymentRecord } from '../common/payment-records.js';
import { savedCard } from '../payment-methods/saved.js';
import { chargeCard } from '../payments/charge-card.js';
import { assertReferenceFree } from '../sessions/service.js';
import { Charges, type ChargeRecord } from './records.js';
import type { CreateChargeBody } from './schemas.js';

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
