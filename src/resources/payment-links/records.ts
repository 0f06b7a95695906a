import type { Mode } from '../../config/types.js';
import type { Minor } from '../../lib/money.js';
import { collection } from '../../store/collection.js';
import type { Frequency } from '../recurring/dates.js';
import { byScope } from '../../lib/scope-key.js';
import { paymentLinkRecordSchema } from './record-schema.js';

export interface LinkProduct {
  id: number;
  quantity: number;
  name: string;
  unit_price: Minor;
}

/** A payment link; its id is an integer shown as a string (`"17"`); the path takes the integer. */
export interface PaymentLinkRecord {
  id: string;
  source: string;
  mode: Mode;
  title: string;
  description: string | null;
  /** The amount asked for; null when the link sells products. */
  amount: Minor | null;
  currency: string;
  success_url: string | null;
  cancel_url: string | null;
  max_uses: number | null;
  expires_at: number | null;
  taxable: boolean;
  recurring: { frequency: Frequency; interval_count: number | null; end_date: number | null } | null;
  metadata: Record<string, unknown>;
  products: LinkProduct[];
  active: boolean;
  uses_count: number;
  created_at: number;
  updated_at: number;
}

export const PaymentLinks = collection<PaymentLinkRecord>('payment_links', { scope: byScope }, undefined, paymentLinkRecordSchema);

/** The price before tax: the amount, or the catalogue sum of the products. */
export const linkPrice = (link: PaymentLinkRecord): Minor => link.amount ?? link.products.reduce((sum, p) => sum + p.unit_price * p.quantity, 0);

/** Usable only while active, unexpired and with uses left. */
export const isUsable = (link: PaymentLinkRecord, now: number): boolean =>
  link.active && (link.expires_at === null || now < link.expires_at) && (link.max_uses === null || link.uses_count < link.max_uses);

export function linkKind(link: PaymentLinkRecord): 'one_time' | 'limited' | 'unlimited' | 'recurring' {
  if (link.recurring) return 'recurring';
  if (link.max_uses === null) return 'unlimited';
  return link.max_uses === 1 ? 'one_time' : 'limited';
}
