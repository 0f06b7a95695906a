import type { Mode } from '../../config/types.js';

/** A record of one Source in one mode: a key of another Source or mode never sees it (a 404). */
export interface OwnedRecord {
  id: string;
  source: string;
  mode: Mode;
}
