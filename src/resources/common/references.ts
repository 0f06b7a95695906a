import type { Mode } from '../../config/types.js';

/** References are unique per mode across the merchant's Sources (test and live are separate). */
export const referenceKey = (mode: Mode, reference: string) => `${mode}:${reference}`;
