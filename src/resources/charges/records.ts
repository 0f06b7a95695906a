import type { Mode } from '../../config/types.js';
import { collection } from '../../store/collection.js';
import { chargeRecordSchema } from './record-schema.js';

/** An off-session charge of a saved card (`ch_...`); its money lives in its payment. */
export interface ChargeRecord {
  id: string;
  source: string;
  mode: Mode;
  payment_id: string;
  created_at: number;
}

export const Charges = collection<ChargeRecord>('charges', {}, undefined, chargeRecordSchema);
