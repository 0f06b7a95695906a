import type { ListSpec } from '../../http/list-query.js';
import { LINK_ATTRIBUTES } from './present.js';
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
  attributes: LINK_ATTRIBUTES,
  id: (l) => Number(l.id),
};
