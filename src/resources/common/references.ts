import type { Mode } from '../../config/types.js';

/**
 * References are unique per mode across the merchant's Sources (test and live are separate):
 * the key of the `reference` indexes. A test reference is its own key, so an index of a year of
 * recurring payments holds no second string per payment; a live one is set apart by a lone
 * surrogate, which no reference holds (payemu refuses text that is not well-formed Unicode), so
 * no test reference can equal a live key. Keys are in memory only, never stored.
 */
export const referenceKey = (mode: Mode, reference: string) => (mode === 'test' ? reference : `\ud800${reference}`);
