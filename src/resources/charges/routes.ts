import { formatTimestamp } from '../../clock/format.js';
import { sparseResource, type ResourceShape } from '../../http/document-query.js';
import { actionRoute, readRoute } from '../../http/resource-routes.js';
import { formatMinor } from '../../lib/money.js';
import { paymentUrl } from '../payments/present.js';
import { isPaid, paymentDescription, Payments, type PaymentRecord } from '../common/payment-records.js';
import type { ChargeRecord } from './records.js';
import { createChargeBody, type CreateChargeBody } from './schemas.js';
import { createCharge, getCharge } from './service.js';
import { attributeNames, errors } from '../../schemas/wire.js';
import { chargeAttributes, chargeDocument, chargeReadDocument } from './wire.js';

export const chargeShape: ResourceShape = { type: 'charges', attributes: attributeNames(chargeAttributes) };

/** Type `charges`: the charge's payment, as it stands now. */
function presentCharge(charge: ChargeRecord, payment: PaymentRecord, base: string) {
  return {
    data: {
      id: charge.id,
      type: 'charges',
      attributes: {
        reference: payment.reference,
        amount: formatMinor(payment.amount),
        currency: payment.currency,
        status: payment.status,
        paid: isPaid(payment.status),
        payment_method: payment.payment_method ?? null,
        failure_code: payment.failure_code ?? null,
        failure_message: payment.failure_message ?? null,
        payment_id: Number(payment.id),
        description: paymentDescription(payment) ?? null,
        metadata: payment.metadata ?? {},
        created_at: formatTimestamp(charge.created_at),
      },
      links: { self: `${base}/v1/charges/${charge.id}`, payment: paymentUrl(base, payment) },
    },
  };
}

export const chargeRoutes = [
  actionRoute<CreateChargeBody>('POST', '/v1/charges', 'Charge a saved card', {
    body: createChargeBody,
    responses: { 201: chargeDocument, 409: errors, 422: errors },
    run: (tx, { app, scope, body, now }) => {
      const { charge, payment } = createCharge(tx, scope, body, now);
      return presentCharge(charge, payment, app.baseUrl());
    },
  }),
  readRoute('/v1/charges/:id', 'Retrieve a charge', {
    shape: chargeShape,
    document: chargeReadDocument,
    read: ({ app, scope, params }, q) => {
      const charge = getCharge(app.store, scope, params.id!);
      const { data } = presentCharge(charge, app.store.get(Payments, charge.payment_id)!, app.baseUrl());
      return { data: sparseResource(data, q, chargeShape) };
    },
  }),
];
