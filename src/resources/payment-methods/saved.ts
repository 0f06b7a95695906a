import type { Scope } from '../../http/auth.js';
import { Unprocessable } from '../../http/errors.js';
import type { Transaction } from '../../store/store.js';
import { PaymentMethods, type PaymentMethodRecord } from './records.js';

/** A card saved by this Source in this mode, or a 422 naming the field. */
export function savedCard(reader: Pick<Transaction, 'get'>, scope: Scope, id: string, field = 'payment_method'): PaymentMethodRecord {
  const method = reader.get(PaymentMethods, id);
  if (!method || method.source !== scope.source.slug || method.mode !== scope.mode) {
    throw Unprocessable.field(field, `The ${field} "${id}" is not a card saved by this Source (save one with a session's save_payment_method: true).`);
  }
  return method;
}
