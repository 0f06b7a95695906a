import { CARD_BRANDS } from '../common/payment-record-schema.js';
import { anyText, bool, oneOf, owned, recordSchema, timestamp } from '../../store/record-schema.js';

/** A stored saved card (PaymentMethodRecord). */
export const paymentMethodRecordSchema = recordSchema(
  { ...owned, card_brand: oneOf(CARD_BRANDS), card_last: anyText, decline_off_session: bool, created_at: timestamp },
  { customer_email: anyText },
);
