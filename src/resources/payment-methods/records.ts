import type { Mode } from '../../config/types.js';
import { collection } from '../../store/collection.js';
import type { CardBrand } from '../common/test-cards.js';
import { paymentMethodRecordSchema } from './record-schema.js';

/** A card saved by a paid session with `save_payment_method: true` (`pm_...`). */
export interface PaymentMethodRecord {
  id: string;
  source: string;
  mode: Mode;
  card_brand: CardBrand;
  card_last: string;
  /** The 4000 0000 0000 0341 card: approved on file, every later off-session charge declined. */
  decline_off_session: boolean;
  customer_email?: string;
  created_at: number;
}

export const PaymentMethods = collection<PaymentMethodRecord>('payment_methods', {}, undefined, paymentMethodRecordSchema);
