/** The statuses of a payment: the wire's enum, and what the records in src/resources/ hold. */
export const PAYMENT_STATUSES = ['PAID', 'FAILED', 'AUTHORIZED', 'VOIDED', 'PARTIALLY_REFUNDED', 'REFUNDED', 'EXPIRED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
