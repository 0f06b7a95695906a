import { fieldsOf, relate, wantsRelationship, type DocumentQuery, type ResourceObject } from '../../http/document-query.js';
import type { Transaction } from '../../store/store.js';
import { presentRefund } from '../refunds/present.js';
import { refundsOf } from '../refunds/service.js';
import { presentPayment } from './present.js';
import type { PaymentRecord } from '../common/payment-records.js';

/**
 * Payments as a JSON:API answer, one or a page of them: `fields[payments]` (else
 * `defaultFields`, else every attribute), and each payment's refunds under
 * `relationships.refunds` and in `included` when `include=refunds` asks (`fields[refunds]`
 * limits them). Naming `refunds` in `fields[payments]` keeps the relationship.
 */
export function paymentDocument(
  reader: Pick<Transaction, 'find'>,
  payments: readonly PaymentRecord[],
  query: DocumentQuery,
  base: string,
  defaultFields?: readonly string[],
): { data: ResourceObject[]; included?: ResourceObject[] } {
  const included = new Map<string, ResourceObject>();
  const fields = fieldsOf(query, 'payments') ?? defaultFields;
  const withRefunds = wantsRelationship(query, 'payments', 'refunds');
  const data = payments.map((payment) => {
    const resource = presentPayment(payment, base, fields);
    if (!withRefunds) return resource;
    const refunds = refundsOf(reader, payment).map((refund) => presentRefund(refund, fieldsOf(query, 'refunds')));
    return relate(resource, 'refunds', refunds, query, included);
  });
  return query.include.size > 0 ? { data, included: [...included.values()] } : { data };
}
