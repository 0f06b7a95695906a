import type { Scope } from '../../http/auth.js';
import { NotFound } from '../../http/errors.js';
import type { Transaction } from '../../store/store.js';
import { referenceKey } from './references.js';
import { Payments, type PaymentRecord } from './payment-records.js';

/** The payment of this Source and mode with `reference`, or a 404 (another Source's is a 404 too). */
export function findPayment(reader: Pick<Transaction, 'find'>, scope: Scope, reference: string): PaymentRecord {
  const payment = reader.find(Payments, 'reference', referenceKey(scope.mode, reference))[0];
  if (!payment || payment.source !== scope.source.slug) throw new NotFound(`No payment with reference "${reference}".`);
  return payment;
}
