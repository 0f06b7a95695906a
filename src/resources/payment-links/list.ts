import type { ListSpec } from '../../http/list-query.js';
import { linkAttributes as attributesSchema } from '../../schemas/payment-links.js';
import { attributeNames } from '../../schemas/wire.js';
import { linkPrice, type PaymentLinkRecord } from './records.js';

export const linkList: ListSpec<PaymentLinkRecord> = {
  type: 'payment-links',
  filters: {
    active: { kind: 'enum', values: ['true', 'false'], get: (l) => String(l.active) },
  },
  sorts: {
    created_at: (l) => l.created_at,
    amount: (l) => linkPrice(l),
    title: (l) => l.title,
  },
  attributes: attributeNames(attributesSchema),
  id: (l) => Number(l.id),
};
